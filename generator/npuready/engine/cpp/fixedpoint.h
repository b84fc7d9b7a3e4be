// Twin of engine/fixedpoint.py: the only place the C++ engine rounds. Same names, same semantics.
// rounding: 0 = "double" (gemmlowp SRDHM + RoundingDivideByPOT), 1 = "single" (one half-up rounding).
#pragma once
#include <cstdint>
#include <cmath>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NPR_X86 1
#endif

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

// ----- runs of accumulators: the epilogue of Conv and Gemm --------------------------------------------
// y[i] = requantize(acc[i] + bias[j], mult[j], shift[j], ...), j = i when ``per_element`` else 0. With
// ``simd`` (the caller checked requantize_simd_ok for these channels and that the CPU runs AVX2) eight
// accumulators at a time take requantize8_avx2, which computes the same integers:
//   double: SRDHM(a, m) = floor((a*m + 2^30) / 2^31) for every a, m (m != INT32_MIN): the nudge and the
//           truncation toward zero of saturating_rounding_doubling_high_mul combine to this one floor;
//           then the same rounding_divide_by_pot;
//   single: floor((x*m + 2^(t-1)) / 2^t), t = 31 - shift in [32, 62] (requantize_simd_ok asks shift <= -1):
//           |result| < 2^31, so the scalar clamp to int32 never acts.
// Both floors run on 64-bit lanes offset by 2^62 (so a logical shift is a floor) and the offset's image
// 2^(62-t) is taken off after the shift. A group whose acc + bias leaves int32 takes the scalar path
// under "single" (the scalar widens to 64 bits; "double" wraps to int32 in both).
inline bool requantize_simd_ok(const int32_t* mult, const int32_t* shift, int channels, int rounding) {
  const int top = rounding == 0 ? 0 : -1;
  for (int i = 0; i < channels; ++i)
    if (mult[i] < 0 || shift[i] > top || shift[i] < -31) return false;
  return true;
}

#if NPR_X86
__attribute__((target("avx2"))) inline __m256i floor_shift_low32(__m256i even, __m256i odd, __m256i te,
                                                                  __m256i to) {
  // even/odd: int64 lanes (|v| < 2^62 already offset by +2^62 by the caller); shifted right by te/to
  const __m256i off = _mm256_set1_epi64x(1LL << 62);
  const __m256i re = _mm256_sub_epi64(_mm256_srlv_epi64(even, te), _mm256_srlv_epi64(off, te));
  const __m256i ro = _mm256_sub_epi64(_mm256_srlv_epi64(odd, to), _mm256_srlv_epi64(off, to));
  return _mm256_blend_epi32(re, _mm256_slli_epi64(ro, 32), 0xAA);
}

__attribute__((target("avx2"))) inline __m256i requantize8_avx2(__m256i x, __m256i m, __m256i s, int rounding) {
  const __m256i even = _mm256_mul_epi32(x, m);
  const __m256i odd = _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(m, 32));
  const __m256i low = _mm256_set1_epi64x(0xffffffffLL);
  if (rounding == 0) {
    const __m256i c = _mm256_set1_epi64x((1LL << 62) + (1LL << 30));
    const __m256i t31 = _mm256_set1_epi64x(31);
    const __m256i high = floor_shift_low32(_mm256_add_epi64(even, c), _mm256_add_epi64(odd, c), t31, t31);
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i e = _mm256_sub_epi32(_mm256_setzero_si256(), s);
    const __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, e), one);
    const __m256i rem = _mm256_and_si256(high, mask);
    const __m256i thr = _mm256_add_epi32(_mm256_srai_epi32(mask, 1), _mm256_srli_epi32(high, 31));
    return _mm256_sub_epi32(_mm256_srav_epi32(high, e), _mm256_cmpgt_epi32(rem, thr));
  }
  const __m256i t = _mm256_sub_epi32(_mm256_set1_epi32(31), s);
  const __m256i te = _mm256_and_si256(t, low), to = _mm256_srli_epi64(t, 32);
  const __m256i one64 = _mm256_set1_epi64x(1), off = _mm256_set1_epi64x(1LL << 62);
  const __m256i ne = _mm256_add_epi64(_mm256_sllv_epi64(one64, _mm256_sub_epi64(te, one64)), off);
  const __m256i no = _mm256_add_epi64(_mm256_sllv_epi64(one64, _mm256_sub_epi64(to, one64)), off);
  return floor_shift_low32(_mm256_add_epi64(even, ne), _mm256_add_epi64(odd, no), te, to);
}

__attribute__((target("avx2"))) inline int requantize_run_avx2(const int32_t* acc, int n, const int32_t* bias,
                                                               const int32_t* mult, const int32_t* shift,
                                                               bool per_element, int zp, int lo, int hi,
                                                               int rounding, int8_t* y) {
  const __m256i vzp = _mm256_set1_epi32(zp), vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
  __m256i b = _mm256_set1_epi32(bias[0]), m = _mm256_set1_epi32(mult[0]), s = _mm256_set1_epi32(shift[0]);
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    if (per_element) {
      b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + i));
      m = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mult + i));
      s = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(shift + i));
    }
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i));
    const __m256i x = _mm256_add_epi32(a, b);
    const __m256i wrapped = _mm256_and_si256(_mm256_xor_si256(a, x), _mm256_xor_si256(b, x));
    if (rounding != 0 && _mm256_movemask_ps(_mm256_castsi256_ps(wrapped)) != 0) break;  // rest: scalar
    __m256i r = _mm256_add_epi32(requantize8_avx2(x, m, s, rounding), vzp);
    r = _mm256_min_epi32(_mm256_max_epi32(r, vlo), vhi);
    const __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), _mm_packs_epi16(w16, w16));
  }
  return i;
}
#endif

inline void requantize_run(const int32_t* acc, int n, const int32_t* bias, const int32_t* mult,
                           const int32_t* shift, bool per_element, int zp, int lo, int hi, int rounding,
                           bool simd, int8_t* y) {
  int i = 0;
#if NPR_X86
  if (simd) i = requantize_run_avx2(acc, n, bias, mult, shift, per_element, zp, lo, hi, rounding, y);
#else
  (void)simd;
#endif
  for (; i < n; ++i) {
    const int j = per_element ? i : 0;
    y[i] = requantize(static_cast<int64_t>(acc[i]) + bias[j], mult[j], shift[j], zp, lo, hi, rounding);
  }
}

}  // namespace npuready
