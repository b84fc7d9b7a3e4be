// Twin of engine/ops/window.py: visit the real (unpadded) elements of every pooling window, NCHW.
// ``Window`` is a small accumulator with add(int) and result() -> int8, constructed fresh per window.
#pragma once
#include <cstdint>

namespace npuready {

template <typename Window>
void pool_windows(const int8_t* x, int n, int c, int h, int w, int kh, int kw, int sh, int sw, int pt, int pl,
                  int oh, int ow, int8_t* y) {
  for (int64_t p = 0; p < static_cast<int64_t>(n) * c; ++p) {
    const int8_t* xp = x + p * h * w;
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox) {
        Window win;
        for (int ky = 0; ky < kh; ++ky) {
          const int iy = oy * sh - pt + ky;
          if (iy < 0 || iy >= h) continue;
          for (int kx = 0; kx < kw; ++kx) {
            const int ix = ox * sw - pl + kx;
            if (ix < 0 || ix >= w) continue;
            win.add(xp[iy * w + ix]);
          }
        }
        y[(p * oh + oy) * ow + ox] = win.result();
      }
  }
}

}  // namespace npuready
