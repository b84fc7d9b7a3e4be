// Twin of engine/ops/softmax.py: exp-table softmax over the last axis, integer only.
#include <vector>

#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_softmax(const int8_t* x, int64_t rows, int len, const int64_t* table, int32_t mult, int shift,
                            int out_zp, int act_min, int act_max, int8_t* y) {
  std::vector<int64_t> e(len);
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* xr = x + r * len;
    int mx = -128;
    for (int i = 0; i < len; ++i) mx = xr[i] > mx ? xr[i] : mx;
    int64_t total = 0;
    for (int i = 0; i < len; ++i) total += (e[i] = table[mx - xr[i]]);
    const int64_t den = total << (31 - shift);
    for (int i = 0; i < len; ++i)
      y[r * len + i] = saturate(rounding_divide(e[i] * mult, den) + out_zp, act_min, act_max);
  }
}
