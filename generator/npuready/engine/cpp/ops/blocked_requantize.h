// Requantising an elementwise op's int32 values block by block with one output multiplier: the caller's
// ``fill(i0, n, acc)`` writes the values of elements [i0, i0 + n) into ``acc``, and fixedpoint.h's
// requantize_run turns each block into int8 (AVX2 when the tile kernel is AVX2 and the multiplier allows it).
#pragma once

#include <cstdint>

#include "../fixedpoint.h"
#include "pairgemm.h"

namespace npuready {

template <class Fill>
inline void requantize_blocks(int64_t count, int32_t m, int s, int out_zp, int act_min, int act_max, int rounding,
                              int8_t* y, Fill fill) {
  const int32_t zero = 0;
  const bool simd = pair_tile_kind() == 2 && requantize_simd_ok(&m, &s, 1, rounding);
  constexpr int kBlock = 1024;
  int32_t acc[kBlock];
  for (int64_t i0 = 0; i0 < count; i0 += kBlock) {
    const int n = static_cast<int>(count - i0 < kBlock ? count - i0 : kBlock);
    fill(i0, n, acc);
    requantize_run(acc, n, &zero, &m, &s, false, out_zp, act_min, act_max, rounding, simd, y + i0);
  }
}

}  // namespace npuready
