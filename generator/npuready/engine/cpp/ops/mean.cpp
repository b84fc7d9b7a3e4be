// Twin of engine/ops/mean.py: mean over H*W per (batch, channel), TFLite reference int8 MEAN.
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_mean(const int8_t* x, int64_t planes, int hw, int in_zp, int32_t mult, int shift, int out_zp,
                         int act_min, int act_max, int rounding, int8_t* y) {
  for (int64_t p = 0; p < planes; ++p) {
    int32_t acc = 0;
    for (int i = 0; i < hw; ++i) acc += static_cast<int32_t>(x[p * hw + i]) - in_zp;
    const int32_t scaled = multiply_by_quantized_multiplier(acc, mult, shift, rounding);
    y[p] = saturate(static_cast<int64_t>(rounding_divide(scaled, hw)) + out_zp, act_min, act_max);
  }
}
