// Twin of engine/ops/add.py: TFLite reference int8 Add (inputs already broadcast to the output shape).
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_add(const int8_t* a, const int8_t* b, int64_t count, int zp1, int zp2, int left_shift,
                        int32_t m1, int s1, int32_t m2, int s2, int32_t mo, int so, int out_zp,
                        int act_min, int act_max, int rounding, int8_t* y) {
  for (int64_t i = 0; i < count; ++i) {
    const int32_t x1 = (static_cast<int32_t>(a[i]) - zp1) * (1 << left_shift);
    const int32_t x2 = (static_cast<int32_t>(b[i]) - zp2) * (1 << left_shift);
    const int32_t v1 = multiply_by_quantized_multiplier_smaller_than_one(x1, m1, s1, rounding);
    const int32_t v2 = multiply_by_quantized_multiplier_smaller_than_one(x2, m2, s2, rounding);
    const int32_t out = multiply_by_quantized_multiplier_smaller_than_one(static_cast<int64_t>(v1) + v2, mo, so, rounding);
    y[i] = saturate(static_cast<int64_t>(out) + out_zp, act_min, act_max);
  }
}
