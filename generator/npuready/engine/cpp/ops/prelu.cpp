// Twin of engine/ops/prelu.py: TFLite reference int8 PRELU (slope already broadcast to the input).
#include "../fixedpoint.h"

using namespace npuready;

// Arguments after count: engine/ops/prelu.py's Params ints, in their order.
extern "C" void npr_prelu(const int8_t* x, const int8_t* alpha, int64_t count, int alpha_zp, int in_zp, int out_zp,
                          int32_t m1, int s1, int32_t m2, int s2, int act_min, int act_max, int rounding, int8_t* y) {
  for (int64_t i = 0; i < count; ++i) {
    const int64_t v = static_cast<int64_t>(x[i]) - in_zp;
    const int64_t scaled = v >= 0 ? multiply_by_quantized_multiplier(v, m1, s1, rounding)
                                  : multiply_by_quantized_multiplier(v * (static_cast<int64_t>(alpha[i]) - alpha_zp),
                                                                     m2, s2, rounding);
    y[i] = saturate(scaled + out_zp, act_min, act_max);
  }
}
