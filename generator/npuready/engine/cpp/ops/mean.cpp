// Twin of engine/ops/mean.py: mean over H*W per (batch, channel), TFLite reference int8 MEAN.
#include "../fixedpoint.h"

using namespace npuready;

// Arguments after planes: engine/ops/mean.py's Params ints, in their order.
extern "C" void npr_mean(const int8_t* x, int64_t planes, int in_zp, int out_zp, int32_t mult, int shift, int hw,
                         int act_min, int act_max, int rounding, int8_t* y) {
  for (int64_t p = 0; p < planes; ++p) {
    int32_t acc = 0;
    for (int i = 0; i < hw; ++i) acc += x[p * hw + i];
    acc -= in_zp * hw;  // multiplier and shift already fold in 1/hw (fixedpoint.mean_multiplier)
    y[p] = requantize(acc, mult, shift, out_zp, act_min, act_max, rounding);
  }
}
