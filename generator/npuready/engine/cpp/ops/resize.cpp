// Twin of engine/ops/resize.py (bilinear): TFLite ResizeBilinearInteger on NCHW planes. Source positions
// (Q10) and lower/upper indices come from the exported graph; rescale separately.
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_resize_bilinear(const int8_t* x, int64_t planes, int h, int w, int oh, int ow,
                                    const int64_t* row_pos, const int64_t* row_lo, const int64_t* row_hi,
                                    const int64_t* col_pos, const int64_t* col_lo, const int64_t* col_hi, int8_t* y) {
  for (int64_t p = 0; p < planes; ++p) {
    const int8_t* xp = x + p * h * w;
    for (int oy = 0; oy < oh; ++oy) {
      const int64_t fy = row_pos[oy] - (row_lo[oy] << 10);
      const int8_t* r0 = xp + row_lo[oy] * w;
      const int8_t* r1 = xp + row_hi[oy] * w;
      for (int ox = 0; ox < ow; ++ox) {
        const int64_t fx = col_pos[ox] - (col_lo[ox] << 10);
        const int64_t acc = r0[col_lo[ox]] * (1024 - fy) * (1024 - fx) + r1[col_lo[ox]] * fy * (1024 - fx) +
                            r0[col_hi[ox]] * (1024 - fy) * fx + r1[col_hi[ox]] * fy * fx;
        y[(p * oh + oy) * ow + ox] = static_cast<int8_t>(rounding_divide(acc, 1 << 20));
      }
    }
  }
}
