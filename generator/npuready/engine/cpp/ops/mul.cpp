// Twin of engine/ops/mul.py: TFLite reference int8 Mul (inputs already broadcast). The products are formed
// in blocks and requantised by requantize_blocks (blocked_requantize.h).
#include "blocked_requantize.h"

using namespace npuready;

extern "C" void npr_mul(const int8_t* a, const int8_t* b, int64_t count, int zp1, int zp2, int32_t m, int s,
                        int out_zp, int act_min, int act_max, int rounding, int8_t* y) {
  requantize_blocks(count, m, s, out_zp, act_min, act_max, rounding, y, [&](int64_t i0, int n, int32_t* prod) {
    for (int i = 0; i < n; ++i)
      prod[i] = (static_cast<int32_t>(a[i0 + i]) - zp1) * (static_cast<int32_t>(b[i0 + i]) - zp2);
  });
}
