// Twin of engine/ops/rescale.py (also the epilogue of reshape/transpose/concat/pools): requantise + clamp.
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_rescale(const int8_t* x, int64_t count, int has_rescale, int in_zp, int32_t mult, int shift,
                            int out_zp, int act_min, int act_max, int rounding, int8_t* y) {
  for (int64_t i = 0; i < count; ++i) {
    y[i] = has_rescale ? requantize(static_cast<int64_t>(x[i]) - in_zp, mult, shift, out_zp, act_min, act_max, rounding)
                       : saturate(x[i], act_min, act_max);
  }
}
