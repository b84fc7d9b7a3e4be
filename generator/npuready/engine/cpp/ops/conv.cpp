// Twin of engine/ops/conv.py: regular, depthwise and grouped 2-D convolution, NCHW, int8 -> int32 -> int8.
// Regular and grouped: per image and group the input windows are gathered once (im2col into pairgemm.h's
// packed int16 pairs, zero point already removed so padding is 0), multiplied by the packed weights, and
// every accumulator is requantised as soon as it is complete (fused epilogue). Depthwise (one input and one
// output channel per group): each plane is copied once into a zero-bordered int16 plane and every kernel tap
// adds one shifted plane. Few output pixels per product (batch 1, 1x1 planes): the pixels as rows and the
// weights as columns instead (pixels_as_rows). Integer sums are exact in any order.
#include <algorithm>
#include <vector>

#include "../fixedpoint.h"
#include "pairgemm.h"

using namespace npuready;

namespace {

struct Shape {
  int c, h, w, o, cg, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow;
};

constexpr int kImageColumns = 1024;

// im2col of input channels [c0, c0 + s.cg) of one image into ``col`` (row k = (ic, ky, kx), column
// first_column + oy*ow+ox)
void gather_windows(const int8_t* x, const Shape& s, int c0, int in_zp, PairCols& col, int first_column) {
  for (int ic = 0; ic < s.cg; ++ic) {
    const int8_t* xc = x + static_cast<int64_t>(c0 + ic) * s.h * s.w;
    for (int ky = 0; ky < s.kh; ++ky)
      for (int kx = 0; kx < s.kw; ++kx) {
        int16_t* dst = col.row((ic * s.kh + ky) * s.kw + kx) + 2 * first_column;
        const int a = s.pl - kx * s.dw;                // ox >= ceil(a / sw) reads ix >= 0
        const int e = s.w - 1 + s.pl - kx * s.dw;      // ox <= floor(e / sw) reads ix <= w - 1
        const int lo = std::min(s.ow, a <= 0 ? 0 : (a + s.sw - 1) / s.sw);
        const int hi = std::max(lo, e < 0 ? 0 : std::min(s.ow, e / s.sw + 1));
        for (int oy = 0; oy < s.oh; ++oy) {
          int16_t* d = dst + static_cast<int64_t>(oy) * s.ow * 2;
          const int iy = oy * s.sh - s.pt + ky * s.dh;
          if (iy < 0 || iy >= s.h) {
            for (int ox = 0; ox < s.ow; ++ox) d[2 * ox] = 0;
            continue;
          }
          const int8_t* row = xc + static_cast<int64_t>(iy) * s.w - s.pl + kx * s.dw;
          for (int ox = 0; ox < lo; ++ox) d[2 * ox] = 0;
          for (int ox = lo; ox < hi; ++ox) d[2 * ox] = static_cast<int16_t>(row[ox * s.sw] - in_zp);
          for (int ox = hi; ox < s.ow; ++ox) d[2 * ox] = 0;
        }
      }
  }
}

// few output pixels (batch 1 late in a network, squeeze-excite 1x1 planes): the pixels of the nb images from
// b0 as the product's rows, each packed as int32 pairs of its window (k = (ic, ky, kx), zero point removed,
// padding 0), against the weights as columns (pairgemm.h's PairCols of the (K x o) transpose, packed once
// per op): a 16-column tile then covers 16 output channels instead of 16 mostly padded pixels.
void pixels_as_rows(const int8_t* x, const Shape& s, int n, const int16_t* weight_cols, const int32_t* bias,
                    int in_zp, int out_zp, const int32_t* mult, const int32_t* shift, int act_min, int act_max,
                    int rounding, bool simd, int8_t* y) {
  const int P = s.oh * s.ow, K = s.c * s.kh * s.kw, kp = (K + 1) / 2;
  std::vector<int32_t> xp(static_cast<size_t>(n) * P * kp, 0);
  for (int b = 0; b < n; ++b)
    for (int oy = 0; oy < s.oh; ++oy)
      for (int ox = 0; ox < s.ow; ++ox) {
        int32_t* row = xp.data() + (static_cast<int64_t>(b) * P + oy * s.ow + ox) * kp;
        for (int ic = 0; ic < s.c; ++ic) {
          const int8_t* xc = x + (static_cast<int64_t>(b) * s.c + ic) * s.h * s.w;
          for (int ky = 0; ky < s.kh; ++ky) {
            const int iy = oy * s.sh - s.pt + ky * s.dh;
            for (int kx = 0; kx < s.kw; ++kx) {
              const int ix = ox * s.sw - s.pl + kx * s.dw;
              if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w) continue;  // padding: 0
              const int i = (ic * s.kh + ky) * s.kw + kx;
              const uint32_t v = static_cast<uint16_t>(static_cast<int16_t>(xc[iy * s.w + ix] - in_zp));
              row[i / 2] |= static_cast<int32_t>(i % 2 ? v << 16 : v);
            }
          }
        }
      }
  const int pp = (s.o + kTileCols - 1) / kTileCols * kTileCols;
  std::vector<int8_t> run(s.o);
  pair_gemm(xp.data(), n * P, weight_cols, kp, pp, s.o, [&](int r, int oc, const int32_t* acc, int count) {
    const int b = r / P, p = r % P;
    requantize_run(acc, count, bias + oc, mult + oc, shift + oc, true, out_zp, act_min, act_max, rounding, simd,
                   run.data());  // output channels along the run: one pixel, strided output
    int8_t* out = y + (static_cast<int64_t>(b) * s.o + oc) * P + p;
    for (int i = 0; i < count; ++i) out[static_cast<int64_t>(i) * P] = run[i];
  });
}

// depthwise: output channel ch reads input channel ch only (cg == 1, o == c)
void depthwise(const int8_t* x, const Shape& s, const int8_t* weight, const int32_t* bias, int in_zp, int out_zp,
               const int32_t* mult, const int32_t* shift, int act_min, int act_max, int rounding, bool simd,
               int8_t* y) {
  const int hp = (s.oh - 1) * s.sh + (s.kh - 1) * s.dh + 1;
  const int wp = (s.ow - 1) * s.sw + (s.kw - 1) * s.dw + 1;
  const int P = s.oh * s.ow;
  std::vector<int16_t> plane(static_cast<size_t>(hp) * wp);
  std::vector<int32_t> acc(P);
  for (int ch = 0; ch < s.c; ++ch) {
    const int8_t* xc = x + static_cast<int64_t>(ch) * s.h * s.w;
    for (int py = 0; py < hp; ++py) {  // zero-bordered copy, zero point removed
      const int iy = py - s.pt;
      int16_t* d = plane.data() + static_cast<int64_t>(py) * wp;
      for (int px = 0; px < wp; ++px) {
        const int ix = px - s.pl;
        d[px] = (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w) ? 0 : static_cast<int16_t>(xc[iy * s.w + ix] - in_zp);
      }
    }
    std::fill(acc.begin(), acc.end(), bias[ch]);
    const int8_t* wc = weight + static_cast<int64_t>(ch) * s.kh * s.kw;
    for (int ky = 0; ky < s.kh; ++ky)  // loop
      for (int kx = 0; kx < s.kw; ++kx) {
        const int32_t wv = wc[ky * s.kw + kx];
        for (int oy = 0; oy < s.oh; ++oy) {
          const int16_t* r = plane.data() + static_cast<int64_t>(oy * s.sh + ky * s.dh) * wp + kx * s.dw;
          int32_t* a = acc.data() + static_cast<int64_t>(oy) * s.ow;
          if (s.sw == 1) {
            for (int ox = 0; ox < s.ow; ++ox) a[ox] += r[ox] * wv;
          } else {
            for (int ox = 0; ox < s.ow; ++ox) a[ox] += r[ox * s.sw] * wv;
          }
        }
      }
    const int32_t zero = 0;  // the bias is in acc already
    requantize_run(acc.data(), P, &zero, mult + ch, shift + ch, false, out_zp, act_min, act_max, rounding, simd,
                   y + static_cast<int64_t>(ch) * P);  // epilogue
  }
}

}  // namespace

extern "C" void npr_conv(const int8_t* x, int n, int c, int h, int w,
                         const int8_t* weight, const int32_t* weight_pairs, const int16_t* weight_cols,
                         int have_cols, int o, int cg, int kh, int kw,
                         const int32_t* bias, int sh, int sw, int dh, int dw, int pt, int pl, int oh, int ow,
                         int group, int in_zp, int out_zp, const int32_t* mult, const int32_t* shift,
                         int act_min, int act_max, int rounding, int8_t* y) {
  // params: weight (o, cg, kh, kw), packed as pairgemm.h's pairs in weight_pairs (o, ceil(K / 2)) and, when
  // have_cols, as PairCols(K, o) data in weight_cols; output channel oc reads input channels g*cg .. g*cg+cg-1
  const Shape s{c, h, w, o, cg, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow};
  const int P = oh * ow;
  const bool simd = pair_tile_kind() == 2 && requantize_simd_ok(mult, shift, o, rounding);
  if (cg == 1 && group == c && o == c) {
    for (int b = 0; b < n; ++b)
      depthwise(x + static_cast<int64_t>(b) * c * h * w, s, weight, bias, in_zp, out_zp, mult, shift, act_min,
                act_max, rounding, simd, y + static_cast<int64_t>(b) * o * P);
    return;
  }
  if (have_cols && group == 1 && padded_work(n * P, o) < padded_work(o, n * P)) {
    const int images = std::max(1, kImageColumns / P);  // bounded packing: about kImageColumns pixel rows
    for (int b0 = 0; b0 < n; b0 += images)
      pixels_as_rows(x + static_cast<int64_t>(b0) * c * h * w, s, std::min(images, n - b0), weight_cols, bias, in_zp,
                     out_zp, mult, shift, act_min, act_max, rounding, simd, y + static_cast<int64_t>(b0) * o * P);
    return;
  }
  const int og = o / group;
  const int K = cg * kh * kw;
  const int batch = std::max(1, std::min(n, kImageColumns / P));  // small planes: several images per product
  PairCols col(K, batch * P);
  for (int b0 = 0; b0 < n; b0 += batch) {
    const int nb = std::min(batch, n - b0);
    col.cols = nb * P;
    for (int g = 0; g < group; ++g) {
      for (int i = 0; i < nb; ++i)
        gather_windows(x + static_cast<int64_t>(b0 + i) * c * h * w, s, g * cg, in_zp, col, i * P);
      const int oc0 = g * og;
      auto epilogue = [&](int r, int q, const int32_t* acc, int count) {
        const int oc = oc0 + r;
        while (count > 0) {  // a run of columns may cross from one image into the next
          const int img = b0 + q / P, p = q % P, run = std::min(count, P - p);
          requantize_run(acc, run, bias + oc, mult + oc, shift + oc, false, out_zp, act_min, act_max, rounding, simd,
                         y + (static_cast<int64_t>(img) * o + oc) * P + p);
          acc += run, q += run, count -= run;
        }
      };
      pair_gemm(weight_pairs + static_cast<int64_t>(oc0) * col.kp, og, col, epilogue);
    }
  }
}
