// Twin of engine/ops/convtranspose.py: TFLite reference int8 TransposeConv (per channel), group 1, NCHW.
// Scatter-accumulate into an int64 scratch of the full output, crop by the pads, add bias, requantise.
#include <vector>

#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_convtranspose(const int8_t* x, int n, int c, int h, int w, const int8_t* weight, int o, int kh,
                                  int kw, const int32_t* bias, int sh, int sw, int pt, int pl, int full_h, int full_w,
                                  int oh, int ow, int in_zp, int out_zp, const int32_t* m, const int32_t* s,
                                  int act_min, int act_max, int rounding, int8_t* y) {
  std::vector<int64_t> acc(static_cast<size_t>(o) * full_h * full_w);
  for (int b = 0; b < n; ++b) {
    std::fill(acc.begin(), acc.end(), 0);
    for (int ci = 0; ci < c; ++ci) {
      const int8_t* plane = x + (static_cast<int64_t>(b) * c + ci) * h * w;
      for (int iy = 0; iy < h; ++iy) {
        for (int ix = 0; ix < w; ++ix) {
          const int64_t v = static_cast<int64_t>(plane[iy * w + ix]) - in_zp;
          if (v == 0) continue;
          for (int co = 0; co < o; ++co) {
            const int8_t* k = weight + (static_cast<int64_t>(ci) * o + co) * kh * kw;
            int64_t* out = acc.data() + static_cast<int64_t>(co) * full_h * full_w;
            for (int i = 0; i < kh; ++i) {
              int64_t* row = out + static_cast<int64_t>(iy * sh + i) * full_w + ix * sw;
              for (int j = 0; j < kw; ++j) row[j] += v * k[i * kw + j];
            }
          }
        }
      }
    }
    for (int co = 0; co < o; ++co) {
      const int64_t* src = acc.data() + static_cast<int64_t>(co) * full_h * full_w;
      int8_t* dst = y + (static_cast<int64_t>(b) * o + co) * oh * ow;
      for (int yy = 0; yy < oh; ++yy) {
        for (int xx = 0; xx < ow; ++xx) {
          const int64_t a = src[static_cast<int64_t>(yy + pt) * full_w + xx + pl] + bias[co];
          dst[yy * ow + xx] = saturate(multiply_by_quantized_multiplier(a, m[co], s[co], rounding) + out_zp,
                                       act_min, act_max);
        }
      }
    }
  }
}
