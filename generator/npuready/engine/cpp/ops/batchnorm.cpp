// Twin of engine/ops/batchnorm.py: per-channel multiply-add (TFLite reference int8 DEPTHWISE_CONV_2D, 1x1).
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_batchnorm(const int8_t* x, int64_t outer, int channels, int64_t inner, const int8_t* w,
                              const int32_t* bias, int in_zp, const int32_t* m, const int32_t* s, int out_zp,
                              int act_min, int act_max, int rounding, int8_t* y) {
  for (int64_t n = 0; n < outer; ++n) {
    for (int c = 0; c < channels; ++c) {
      const int64_t base = (n * channels + c) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t acc = (static_cast<int64_t>(x[base + i]) - in_zp) * w[c] + bias[c];
        y[base + i] = saturate(multiply_by_quantized_multiplier(acc, m[c], s[c], rounding) + out_zp, act_min,
                               act_max);
      }
    }
  }
}
