// Twin of engine/fixedpoint.py: the only place the C++ engine rounds. Same names, same semantics.
// rounding: 0 = "double" (gemmlowp SRDHM + RoundingDivideByPOT), 1 = "single" (one half-up rounding).
#pragma once
#include <cstdint>
#include <cmath>
#include <limits>

namespace npuready {

constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();

inline int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  const bool overflow = a == b && a == kInt32Min;
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (1LL << 30) : (1LL - (1LL << 30));
  const int32_t high = static_cast<int32_t>((ab + nudge) / (1LL << 31));  // truncates toward zero
  return overflow ? kInt32Max : high;
}

inline int32_t rounding_divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((1LL << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

inline int32_t multiply_by_quantized_multiplier(int64_t x, int32_t multiplier, int shift, int rounding) {
  if (rounding == 0) {
    const int left = shift > 0 ? shift : 0;
    const int right = shift > 0 ? 0 : -shift;
    return rounding_divide_by_pot(
        saturating_rounding_doubling_high_mul(static_cast<int32_t>(x * (1LL << left)), multiplier), right);
  }
  const int total = 31 - shift;
  const int64_t r = (x * static_cast<int64_t>(multiplier) + (1LL << (total - 1))) >> total;
  return static_cast<int32_t>(r < kInt32Min ? kInt32Min : (r > kInt32Max ? kInt32Max : r));
}

inline int32_t multiply_by_quantized_multiplier_smaller_than_one(int64_t x, int32_t multiplier, int shift,
                                                                 int rounding) {
  if (rounding == 0) {
    return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(static_cast<int32_t>(x), multiplier), -shift);
  }
  return multiply_by_quantized_multiplier(x, multiplier, shift, rounding);
}

inline int64_t rounding_divide(int64_t acc, int64_t count) {
  return acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
}

inline int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

inline int32_t shl_sat(int32_t x, int exponent) {  // SaturatingRoundingMultiplyByPOT, positive exponent
  const int32_t threshold = static_cast<int32_t>((1LL << (31 - exponent)) - 1);
  if (x > threshold) return kInt32Max;
  if (x < -threshold) return kInt32Min;
  return static_cast<int32_t>(static_cast<int64_t>(x) * (1LL << exponent));
}

// gemmlowp one_over_one_plus_x_for_x_in_0_1: 1 / (1 + a), a in [0, 1) as raw Q0 (three Newton steps in Q2)
inline int32_t one_over_one_plus_x_for_x_in_0_1(int32_t a) {
  const int64_t sum = static_cast<int64_t>(a) + kInt32Max;
  const int32_t half_denominator = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  int32_t x = wrap32(1515870810LL + saturating_rounding_doubling_high_mul(half_denominator, -1010580540));
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus = wrap32((1LL << 29) - saturating_rounding_doubling_high_mul(half_denominator, x));
    x = wrap32(static_cast<int64_t>(x) + shl_sat(saturating_rounding_doubling_high_mul(x, one_minus), 2));
  }
  return shl_sat(x, 1);
}

inline int count_leading_zeros32(uint32_t x) {
  if (x == 0) return 32;
  int n = 0;
  while (!(x & 0x80000000u)) { x <<= 1; ++n; }
  return n;
}

inline int64_t isqrt(int64_t v) {  // exact floor(sqrt(v)), 0 <= v < 2^62
  int64_t r = static_cast<int64_t>(std::floor(std::sqrt(static_cast<double>(v))));
  while (r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

inline int8_t saturate(int64_t x, int lo, int hi) {
  return static_cast<int8_t>(x < lo ? lo : (x > hi ? hi : x));
}

// Float -> int8 code at the graph input (fixedpoint.quantize_float): mode 0 half away from zero (TFLite),
// 1 half to even (ONNX).
inline int8_t quantize_float(float x, float scale, int zero_point, int mode) {
  const float v = x / scale;
  const float r = mode == 0 ? std::round(v) : std::nearbyint(v);
  return saturate(static_cast<int64_t>(r) + zero_point, -128, 127);
}

inline int8_t requantize(int64_t acc, int32_t multiplier, int shift, int zero_point, int lo, int hi,
                         int rounding) {
  return saturate(static_cast<int64_t>(multiply_by_quantized_multiplier(acc, multiplier, shift, rounding)) + zero_point,
                  lo, hi);
}

}  // namespace npuready
