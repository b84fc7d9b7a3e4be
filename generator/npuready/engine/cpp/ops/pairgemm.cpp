// Tile kernels of pairgemm.h: the same integer sums with three instruction sets. The library is built with
// portable flags (SSE2 baseline on x86-64); the AVX2 kernel is compiled for its own target only and chosen at
// run time when the CPU has AVX2, so one build runs on every machine.
#include "pairgemm.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NPR_X86 1
#endif

namespace npuready {
namespace {

void tile_scalar(const int32_t* const* w, int kp, const int16_t* b, int64_t stride, int32_t* out) {
  for (int j = 0; j < kTileRows * kTileCols; ++j) out[j] = 0;
  for (int i = 0; i < kp; ++i) {
    const int16_t* src = b + i * stride;
    for (int j = 0; j < kTileRows; ++j) {
      const int32_t lo = static_cast<int16_t>(w[j][i] & 0xffff), hi = static_cast<int16_t>(w[j][i] >> 16);
      for (int q = 0; q < kTileCols; ++q) out[j * kTileCols + q] += src[2 * q] * lo + src[2 * q + 1] * hi;
    }
  }
}

#if NPR_X86
void tile_sse2(const int32_t* const* w, int kp, const int16_t* b, int64_t stride, int32_t* out) {
  for (int half = 0; half < kTileCols; half += 8) {  // 8 columns = two registers per row: 8 accumulators
    __m128i c[kTileRows][2];
    for (auto& r : c) r[0] = r[1] = _mm_setzero_si128();
    for (int i = 0; i < kp; ++i) {
      const int16_t* src = b + i * stride + 2 * half;
      const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
      const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 8));
      for (int j = 0; j < kTileRows; ++j) {
        const __m128i a = _mm_set1_epi32(w[j][i]);
        c[j][0] = _mm_add_epi32(c[j][0], _mm_madd_epi16(b0, a));
        c[j][1] = _mm_add_epi32(c[j][1], _mm_madd_epi16(b1, a));
      }
    }
    for (int j = 0; j < kTileRows; ++j) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j * kTileCols + half), c[j][0]);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j * kTileCols + half + 4), c[j][1]);
    }
  }
}

__attribute__((target("avx2"))) void tile_avx2(const int32_t* const* w, int kp, const int16_t* b, int64_t stride,
                                               int32_t* out) {
  __m256i c[kTileRows][2];
  for (auto& r : c) r[0] = r[1] = _mm256_setzero_si256();
  for (int i = 0; i < kp; ++i) {
    const int16_t* src = b + i * stride;
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 16));
    for (int j = 0; j < kTileRows; ++j) {
      const __m256i a = _mm256_set1_epi32(w[j][i]);
      c[j][0] = _mm256_add_epi32(c[j][0], _mm256_madd_epi16(b0, a));
      c[j][1] = _mm256_add_epi32(c[j][1], _mm256_madd_epi16(b1, a));
    }
  }
  for (int j = 0; j < kTileRows; ++j) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j * kTileCols), c[j][0]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j * kTileCols + 8), c[j][1]);
  }
}

// one row (a batch-1 Gemm, a Conv's single pixel row): the 4-row tile would compute three rows of zeros
__attribute__((target("avx2"))) void tile1_avx2(const int32_t* w, int kp, const int16_t* b, int64_t stride,
                                                int32_t* out) {
  __m256i c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256();
  for (int i = 0; i < kp; ++i) {
    const int16_t* src = b + i * stride;
    const __m256i a = _mm256_set1_epi32(w[i]);
    c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src)), a));
    c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 16)), a));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), c0);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8), c1);
}
#endif

int best_kind() {
#if NPR_X86
  __builtin_cpu_init();  // may run before libgcc's own constructor has filled the feature bits
  return __builtin_cpu_supports("avx2") ? 2 : 1;
#else
  return 0;
#endif
}

PairTile kernel_of(int kind) {
#if NPR_X86
  if (kind == 2) return tile_avx2;
  if (kind == 1) return tile_sse2;
#endif
  return tile_scalar;
}

int active_kind = best_kind();

}  // namespace

PairTile pair_tile() { return kernel_of(active_kind); }

PairTile1 pair_tile1() {
#if NPR_X86
  if (active_kind == 2) return tile1_avx2;
#endif
  return nullptr;
}

int pair_tile_kind() { return active_kind; }

}  // namespace npuready

// The tile kernel in use: 0 scalar, 1 SSE2, 2 AVX2 (the widest this CPU runs, unless changed). ``kind`` >= 0
// selects another one this CPU runs (the tests compare all of them); returns the kind in use afterwards.
extern "C" int npr_pair_tile(int kind) {
  if (kind >= 0 && kind <= npuready::best_kind()) npuready::active_kind = kind;
  return npuready::active_kind;
}
