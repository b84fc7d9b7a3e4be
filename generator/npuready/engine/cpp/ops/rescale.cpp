// Twin of engine/ops/rescale.py (also the epilogue of reshape/transpose/concat/pools): requantise + clamp.
// The result depends on the code only, so long tensors look it up in a 256-entry table of the same
// expression (identical integers, one requantise per code instead of per element).
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_rescale(const int8_t* x, int64_t count, int has_rescale, int in_zp, int32_t mult, int shift,
                            int out_zp, int act_min, int act_max, int rounding, int8_t* y) {
  auto one = [&](int v) {
    return has_rescale ? requantize(static_cast<int64_t>(v) - in_zp, mult, shift, out_zp, act_min, act_max, rounding)
                       : saturate(v, act_min, act_max);
  };
  if (count < 1024) {
    for (int64_t i = 0; i < count; ++i) y[i] = one(x[i]);
    return;
  }
  int8_t table[256];
  for (int v = -128; v < 128; ++v) table[v + 128] = one(v);
  for (int64_t i = 0; i < count; ++i) y[i] = table[static_cast<int>(x[i]) + 128];
}
