// Twin of engine/ops/mul.py: TFLite reference int8 Mul (inputs already broadcast). The products are formed
// in blocks and requantised by fixedpoint.h's requantize_run (AVX2 when the tile kernel is AVX2).
#include "../fixedpoint.h"
#include "pairgemm.h"

using namespace npuready;

extern "C" void npr_mul(const int8_t* a, const int8_t* b, int64_t count, int zp1, int zp2, int32_t m, int s,
                        int out_zp, int act_min, int act_max, int rounding, int8_t* y) {
  const int32_t zero = 0;
  const bool simd = pair_tile_kind() == 2 && requantize_simd_ok(&m, &s, 1, rounding);
  constexpr int kBlock = 1024;
  int32_t prod[kBlock];
  for (int64_t i0 = 0; i0 < count; i0 += kBlock) {
    const int n = static_cast<int>(count - i0 < kBlock ? count - i0 : kBlock);
    for (int i = 0; i < n; ++i)
      prod[i] = (static_cast<int32_t>(a[i0 + i]) - zp1) * (static_cast<int32_t>(b[i0 + i]) - zp2);
    requantize_run(prod, n, &zero, &m, &s, false, out_zp, act_min, act_max, rounding, simd, y + i0);
  }
}
