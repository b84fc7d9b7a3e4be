// Twin of engine/ops/layernorm.py: integer LayerNorm over the last axis (exact isqrt, folded gamma/beta).
#include <vector>

#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_layernorm(const int8_t* x, int64_t rows, int c, int in_zp, int out_zp, int64_t eps, int frac,
                              int gbits, const int64_t* gamma, const int64_t* beta, int act_min, int act_max,
                              int8_t* y) {
  std::vector<int64_t> d(c);
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* xr = x + r * c;
    int64_t s = 0;
    for (int i = 0; i < c; ++i) s += static_cast<int64_t>(xr[i]) - in_zp;
    int64_t v = eps;
    for (int i = 0; i < c; ++i) {
      d[i] = static_cast<int64_t>(c) * (static_cast<int64_t>(xr[i]) - in_zp) - s;
      v += d[i] * d[i];
    }
    int64_t root = isqrt(v << (2 * frac));
    if (root < 1) root = 1;
    for (int i = 0; i < c; ++i) {
      const int64_t t = rounding_divide((d[i] * gamma[i]) << frac, root);
      const int64_t q = rounding_divide(t + beta[i], static_cast<int64_t>(1) << gbits);
      y[r * c + i] = saturate(q + out_zp, act_min, act_max);
    }
  }
}
