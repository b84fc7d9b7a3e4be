// Twin of engine/ops/conv.py: regular, depthwise and grouped 2-D convolution, NCHW, int8 -> int32 -> int8.
// Per image and group, the input windows are gathered once (im2col, int16, zero point already removed so
// padding is 0); each output channel then accumulates K rows of that matrix into an int32 plane, four
// channels at a time to reuse every loaded row. Integer sums are exact in any order.
#include <algorithm>
#include <vector>

#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_conv(const int8_t* x, int n, int c, int h, int w,
                         const int8_t* weight, int o, int cg, int kh, int kw, const int32_t* bias,
                         int sh, int sw, int dh, int dw, int pt, int pl, int oh, int ow, int group,
                         int in_zp, int out_zp, const int32_t* mult, const int32_t* shift,
                         int act_min, int act_max, int rounding, int8_t* y) {
  // params: weight (o, cg, kh, kw); output channel oc reads input channels g*cg .. g*cg+cg-1
  const int og = o / group;
  const int K = cg * kh * kw;
  const int P = oh * ow;
  std::vector<int16_t> col(static_cast<size_t>(K) * P);
  std::vector<int32_t> acc(static_cast<size_t>(4) * P);
  for (int b = 0; b < n; ++b) {
    for (int g = 0; g < group; ++g) {
      // im2col: row k = (ic, ky, kx), column p = (oy, ox)
      for (int ic = 0; ic < cg; ++ic) {
        const int8_t* xc = x + ((static_cast<int64_t>(b) * c + g * cg + ic) * h) * w;
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx) {
            int16_t* dst = col.data() + static_cast<int64_t>((ic * kh + ky) * kw + kx) * P;
            for (int oy = 0; oy < oh; ++oy) {
              const int iy = oy * sh - pt + ky * dh;
              for (int ox = 0; ox < ow; ++ox) {
                const int ix = ox * sw - pl + kx * dw;
                dst[oy * ow + ox] = (iy < 0 || iy >= h || ix < 0 || ix >= w) ? 0
                                    : static_cast<int16_t>(xc[iy * w + ix] - in_zp);
              }
            }
          }
      }
      // loop: four output channels per pass over the gathered rows
      for (int oc0 = g * og; oc0 < (g + 1) * og; oc0 += 4) {
        const int nb = std::min(4, (g + 1) * og - oc0);
        for (int j = 0; j < nb; ++j) std::fill(acc.begin() + j * P, acc.begin() + (j + 1) * P, bias[oc0 + j]);
        int32_t* a0 = acc.data();
        int32_t* a1 = a0 + P;
        int32_t* a2 = a1 + P;
        int32_t* a3 = a2 + P;
        if (nb == 1) {  // one channel left (always so in depthwise convs): no work for absent channels
          for (int k = 0; k < K; ++k) {
            const int16_t* r = col.data() + static_cast<int64_t>(k) * P;
            const int16_t w0 = weight[static_cast<int64_t>(oc0) * K + k];
            for (int p = 0; p < P; ++p) a0[p] += r[p] * w0;
          }
        }
        for (int k = 0; k < K && nb > 1; ++k) {
          const int16_t* r = col.data() + static_cast<int64_t>(k) * P;
          const int16_t w0 = weight[static_cast<int64_t>(oc0) * K + k];
          const int16_t w1 = nb > 1 ? weight[static_cast<int64_t>(oc0 + 1) * K + k] : 0;
          const int16_t w2 = nb > 2 ? weight[static_cast<int64_t>(oc0 + 2) * K + k] : 0;
          const int16_t w3 = nb > 3 ? weight[static_cast<int64_t>(oc0 + 3) * K + k] : 0;
          for (int p = 0; p < P; ++p) {
            const int16_t v = r[p];
            a0[p] += v * w0;
            a1[p] += v * w1;
            a2[p] += v * w2;
            a3[p] += v * w3;
          }
        }
        // epilogue
        for (int j = 0; j < nb; ++j) {
          const int oc = oc0 + j;
          int8_t* yp = y + (static_cast<int64_t>(b) * o + oc) * P;
          const int32_t* aj = acc.data() + static_cast<int64_t>(j) * P;
          for (int p = 0; p < P; ++p) yp[p] = requantize(aj[p], mult[oc], shift[oc], out_zp, act_min, act_max, rounding);
        }
      }
    }
  }
}
