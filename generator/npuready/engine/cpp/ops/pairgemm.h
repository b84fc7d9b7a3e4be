// Shared int32-accumulating matrix product of Conv and Gemm: acc[r][p] = sum_k w[r][k] * b[k][p], w int8,
// b int16 with the input zero point already removed. Integer sums are exact in any order, so the result is
// the same as the NumPy engine's whatever the blocking or the instruction set.
//
// Operands are packed in pairs of k so one ``pmaddwd`` does two multiply-adds per 32-bit lane:
//   b: PairCols, element (k, p) at data[((k / 2) * pp + p) * 2 + k % 2], pp = cols rounded up to 16; the
//      padding columns and the odd last row stay 0;
//   w: int32 per (r, k / 2) holding w[r][2i] in the low and w[r][2i+1] in the high 16 bits (packed once per
//      op by cpp_engine.weight_pairs).
// ``store(r, p0, acc, np)`` receives acc[r][p0 .. p0+np-1] (contiguous) once for every r < rows and every
// column: the caller's fused epilogue.
// Every |product| <= 255 * 128, so a pair sum never overflows int16 x int16 -> int32 (pmaddwd's only wrap is
// (-32768)^2 * 2, out of reach).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace npuready {

constexpr int kTileRows = 4, kTileCols = 16;

struct PairCols {
  int k, cols, kp, pp;
  std::vector<int16_t> data;
  PairCols(int k_, int cols_)
      : k(k_), cols(cols_), kp((k_ + 1) / 2), pp((cols_ + kTileCols - 1) / kTileCols * kTileCols),
        data(static_cast<size_t>(kp) * pp * 2, 0) {}
  // element (kk, column) is row(kk)[2 * column]
  int16_t* row(int kk) { return data.data() + (static_cast<int64_t>(kk / 2) * pp) * 2 + (kk & 1); }
};

// out[j * kTileCols + q] = sum_i pairs(w[j][i]) . pairs(b[i * stride + 2q .. 2q+1]), j < kTileRows, q < kTileCols
using PairTile = void (*)(const int32_t* const* w, int kp, const int16_t* b, int64_t stride, int32_t* out);
PairTile pair_tile();  // the widest kernel this CPU runs (pairgemm.cpp, chosen at run time; npr_pair_tile)
int pair_tile_kind();  // 0 scalar, 1 SSE2, 2 AVX2: the epilogue may use AVX2 only when this is 2
// out[q] = sum_i pairs(w[i]) . pairs(b[i * stride + 2q .. 2q+1]), q < kTileCols: one row of the tile
using PairTile1 = void (*)(const int32_t* w, int kp, const int16_t* b, int64_t stride, int32_t* out);
PairTile1 pair_tile1();  // a one-row kernel of the kind in use, or nullptr (then the 4-row tile runs)

// b given as its packed data (kp rows of pp column pairs; only the first ``cols`` columns are stored)
template <typename Store>
void pair_gemm(const int32_t* wp, int rows, const int16_t* b, int kp, int pp, int cols, Store store) {
  const PairTile tile = pair_tile();
  const PairTile1 tile1 = pair_tile1();
  const std::vector<int32_t> zero(kp, 0);
  alignas(32) int32_t out[kTileRows * kTileCols];
  constexpr int kChunk = 256;  // columns per pass: the b panel stays in L2 while every row block reads it
  const int end = (cols + kTileCols - 1) / kTileCols * kTileCols;  // cols may be below the allocated pp
  for (int c0 = 0; c0 < end; c0 += kChunk) {
    const int c1 = std::min(end, c0 + kChunk);
    for (int r0 = 0; r0 < rows; r0 += kTileRows) {
      const int nr = std::min(kTileRows, rows - r0);
      const int32_t* w[kTileRows];
      for (int j = 0; j < kTileRows; ++j) w[j] = j < nr ? wp + static_cast<int64_t>(r0 + j) * kp : zero.data();
      for (int p0 = c0; p0 < c1; p0 += kTileCols) {
        if (nr == 1 && tile1 != nullptr)
          tile1(w[0], kp, b + static_cast<int64_t>(p0) * 2, static_cast<int64_t>(pp) * 2, out);
        else
          tile(w, kp, b + static_cast<int64_t>(p0) * 2, static_cast<int64_t>(pp) * 2, out);
        const int np = std::min(kTileCols, cols - p0);
        for (int j = 0; j < nr; ++j) store(r0 + j, p0, out + j * kTileCols, np);
      }
    }
  }
}

template <typename Store>
void pair_gemm(const int32_t* wp, int rows, const PairCols& b, Store store) {
  pair_gemm(wp, rows, b.data.data(), b.kp, b.pp, b.cols, store);
}

// Rows that are padded up to kTileRows and columns padded up to kTileCols: the work a product does,
// to pick the cheaper of two orientations of the same product.
inline int64_t padded_work(int rows, int cols) {
  return static_cast<int64_t>((rows + kTileRows - 1) / kTileRows) * ((cols + kTileCols - 1) / kTileCols);
}

}  // namespace npuready
