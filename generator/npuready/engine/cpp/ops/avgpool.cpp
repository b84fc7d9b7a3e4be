// Twin of engine/ops/avgpool.py: integer mean of each window's real elements; rescale separately.
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_avgpool(const int8_t* x, int n, int c, int h, int w, int kh, int kw, int sh, int sw,
                            int pt, int pl, int oh, int ow, int8_t* y) {
  for (int64_t p = 0; p < static_cast<int64_t>(n) * c; ++p) {
    const int8_t* xp = x + p * h * w;
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox) {
        int32_t acc = 0;
        int count = 0;
        for (int ky = 0; ky < kh; ++ky) {
          const int iy = oy * sh - pt + ky;
          if (iy < 0 || iy >= h) continue;
          for (int kx = 0; kx < kw; ++kx) {
            const int ix = ox * sw - pl + kx;
            if (ix < 0 || ix >= w) continue;
            acc += xp[iy * w + ix];
            ++count;
          }
        }
        y[(p * oh + oy) * ow + ox] = static_cast<int8_t>(rounding_divide(acc, count));
      }
  }
}
