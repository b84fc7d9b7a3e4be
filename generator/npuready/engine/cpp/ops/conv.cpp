// Twin of engine/ops/conv.py: regular, depthwise and grouped 2-D convolution, NCHW, int8 -> int32 -> int8.
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_conv(const int8_t* x, int n, int c, int h, int w,
                         const int8_t* weight, int o, int cg, int kh, int kw, const int32_t* bias,
                         int sh, int sw, int dh, int dw, int pt, int pl, int oh, int ow, int group,
                         int in_zp, int out_zp, const int32_t* mult, const int32_t* shift,
                         int act_min, int act_max, int rounding, int8_t* y) {
  // params: weight (o, cg, kh, kw); output channel oc reads input channels g*cg .. g*cg+cg-1
  const int og = o / group;
  for (int b = 0; b < n; ++b) {
    for (int oc = 0; oc < o; ++oc) {
      const int g = oc / og;
      const int8_t* wk = weight + static_cast<int64_t>(oc) * cg * kh * kw;
      for (int oy = 0; oy < oh; ++oy) {
        for (int ox = 0; ox < ow; ++ox) {
          // loop
          int32_t acc = 0;
          for (int ic = 0; ic < cg; ++ic) {
            const int8_t* xc = x + ((static_cast<int64_t>(b) * c + g * cg + ic) * h) * w;
            const int8_t* wc = wk + ic * kh * kw;
            for (int ky = 0; ky < kh; ++ky) {
              const int iy = oy * sh - pt + ky * dh;
              if (iy < 0 || iy >= h) continue;
              for (int kx = 0; kx < kw; ++kx) {
                const int ix = ox * sw - pl + kx * dw;
                if (ix < 0 || ix >= w) continue;
                acc += (static_cast<int32_t>(xc[iy * w + ix]) - in_zp) * static_cast<int32_t>(wc[ky * kw + kx]);
              }
            }
          }
          // epilogue
          acc += bias[oc];
          y[((static_cast<int64_t>(b) * o + oc) * oh + oy) * ow + ox] =
              requantize(acc, mult[oc], shift[oc], out_zp, act_min, act_max, rounding);
        }
      }
    }
  }
}
