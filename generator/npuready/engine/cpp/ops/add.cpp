// Twin of engine/ops/add.py: TFLite reference int8 Add (inputs already broadcast to the output shape).
// Each input's rescaled value depends on its own code only, so long tensors take both from 256-entry tables
// of the same expressions; the sum's requantise runs over blocks (requantize_blocks, blocked_requantize.h).
// Identical integers: the output multiplier is smaller than one (shift <= 0), where
// multiply_by_quantized_multiplier and its smaller_than_one variant agree, and |v1 + v2| < 2^29.
#include <cstdint>

#include "../fixedpoint.h"
#include "blocked_requantize.h"

using namespace npuready;

extern "C" void npr_add(const int8_t* a, const int8_t* b, int64_t count, int zp1, int zp2, int left_shift,
                        int32_t m1, int s1, int32_t m2, int s2, int32_t mo, int so, int out_zp,
                        int act_min, int act_max, int rounding, int8_t* y) {
  auto side = [&](int code, int zp, int32_t m, int s) {
    const int32_t v = (static_cast<int32_t>(code) - zp) * (1 << left_shift);
    return multiply_by_quantized_multiplier_smaller_than_one(v, m, s, rounding);
  };
  if (count < 512 || so > 0) {
    for (int64_t i = 0; i < count; ++i) {
      const int64_t sum = static_cast<int64_t>(side(a[i], zp1, m1, s1)) + side(b[i], zp2, m2, s2);
      const int32_t r = multiply_by_quantized_multiplier_smaller_than_one(sum, mo, so, rounding);
      y[i] = saturate(static_cast<int64_t>(r) + out_zp, act_min, act_max);
    }
    return;
  }
  int32_t t1[256], t2[256];
  for (int v = -128; v < 128; ++v) {
    t1[v + 128] = side(v, zp1, m1, s1);
    t2[v + 128] = side(v, zp2, m2, s2);
  }
  requantize_blocks(count, mo, so, out_zp, act_min, act_max, rounding, y, [&](int64_t i0, int n, int32_t* sum) {
    for (int i = 0; i < n; ++i) sum[i] = t1[static_cast<int>(a[i0 + i]) + 128] + t2[static_cast<int>(b[i0 + i]) + 128];
  });
}
