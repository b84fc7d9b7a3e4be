// Twin of engine/ops/matmul.py: batched int8 x int8 matmul (operands already broadcast), requantised per
// row by fixedpoint.h's requantize_run.
#include <vector>

#include "../fixedpoint.h"
#include "pairgemm.h"

using namespace npuready;

extern "C" void npr_matmul(const int8_t* a, const int8_t* b, int64_t batch, int m, int k, int n, int zp1, int zp2,
                           int32_t mult, int shift, int out_zp, int act_min, int act_max, int rounding, int8_t* y) {
  std::vector<int32_t> acc(n);
  const int32_t zero = 0;
  const bool simd = pair_tile_kind() == 2 && requantize_simd_ok(&mult, &shift, 1, rounding);
  for (int64_t t = 0; t < batch; ++t) {
    const int8_t* at = a + t * m * k;
    const int8_t* bt = b + t * k * n;
    for (int i = 0; i < m; ++i) {
      for (auto& v : acc) v = 0;
      for (int kk = 0; kk < k; ++kk) {  // loop
        const int32_t av = static_cast<int32_t>(at[i * k + kk]) - zp1;
        const int8_t* br = bt + kk * n;
        for (int j = 0; j < n; ++j) acc[j] += av * (static_cast<int32_t>(br[j]) - zp2);
      }
      requantize_run(acc.data(), n, &zero, &mult, &shift, false, out_zp, act_min, act_max, rounding, simd,
                     y + (t * m + i) * n);  // epilogue
    }
  }
}
