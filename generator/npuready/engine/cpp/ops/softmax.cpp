// Twin of engine/ops/softmax.py: TFLite's reference int8 SOFTMAX (gemmlowp fixed point), output 1/256 and -128.
// exp_table[d] holds exp(-d * scale) as raw Q0 for code distance d = max - x (-1: beyond diff_min).
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_softmax(const int8_t* x, int64_t rows, int len, const int64_t* exp_table, int acc_bits,
                            int8_t* y) {
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* xr = x + r * len;
    int mx = -128;
    for (int i = 0; i < len; ++i) mx = xr[i] > mx ? xr[i] : mx;
    int32_t total = 0;
    for (int i = 0; i < len; ++i) {
      const int64_t e = exp_table[mx - xr[i]];
      if (e >= 0) total = wrap32(static_cast<int64_t>(total) + rounding_divide_by_pot(static_cast<int32_t>(e), acc_bits));
    }
    const int headroom = count_leading_zeros32(static_cast<uint32_t>(total));
    const int bits_over_unit = acc_bits - headroom;
    const int32_t shifted_minus_one =
        static_cast<int32_t>((static_cast<uint32_t>(total) << headroom) - (static_cast<uint32_t>(1) << 31));
    const int32_t scale = one_over_one_plus_x_for_x_in_0_1(shifted_minus_one);
    for (int i = 0; i < len; ++i) {
      const int64_t e = exp_table[mx - xr[i]];
      int64_t out = -128;
      if (e >= 0)
        out = static_cast<int64_t>(rounding_divide_by_pot(
                  saturating_rounding_doubling_high_mul(scale, static_cast<int32_t>(e)), bits_over_unit + 31 - 8)) - 128;
      y[r * len + i] = saturate(out, -128, 127);
    }
  }
}
