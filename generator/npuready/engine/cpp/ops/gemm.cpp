// Twin of engine/ops/gemm.py: fully connected, weight (o, k), per-channel multipliers, through pairgemm.h's
// pair product in whichever orientation pads less: weights as rows (packed pairs) and the n input rows as
// columns, or (few input rows, e.g. a transformer's tokens) the input rows as rows and the weights as
// columns (packed once per op). Each accumulator is requantised as soon as it is complete (fused epilogue).
#include "../fixedpoint.h"
#include "pairgemm.h"

using namespace npuready;

extern "C" void npr_gemm(const int8_t* x, int n, int k, const int32_t* weight_pairs, const int16_t* weight_cols,
                         int o, const int32_t* bias, int in_zp, int out_zp, const int32_t* mult,
                         const int32_t* shift, int act_min, int act_max, int rounding, int8_t* y) {
  // weight_pairs (o, ceil(k / 2)) int32; weight_cols: the same weights as PairCols(k, o) data
  const bool simd = pair_tile_kind() == 2 && requantize_simd_ok(mult, shift, o, rounding);
  const int kp = (k + 1) / 2;
  if (padded_work(n, o) < padded_work(o, n)) {  // input rows as rows: pack them as int32 pairs
    std::vector<int32_t> xp(static_cast<size_t>(n) * kp, 0);
    for (int b = 0; b < n; ++b)
      for (int i = 0; i < k; ++i) {
        const uint32_t v = static_cast<uint16_t>(static_cast<int16_t>(x[static_cast<int64_t>(b) * k + i] - in_zp));
        xp[static_cast<size_t>(b) * kp + i / 2] |= static_cast<int32_t>(i % 2 ? v << 16 : v);
      }
    const int pp = (o + kTileCols - 1) / kTileCols * kTileCols;
    pair_gemm(xp.data(), n, weight_cols, kp, pp, o, [&](int b, int oc, const int32_t* acc, int count) {
      requantize_run(acc, count, bias + oc, mult + oc, shift + oc, true, out_zp, act_min, act_max, rounding, simd,
                     y + static_cast<int64_t>(b) * o + oc);  // output channels along the run
    });
    return;
  }
  PairCols col(k, n);
  for (int i = 0; i < k; ++i) {
    int16_t* d = col.row(i);
    for (int b = 0; b < n; ++b) d[2 * b] = static_cast<int16_t>(x[static_cast<int64_t>(b) * k + i] - in_zp);
  }
  pair_gemm(weight_pairs, o, col, [&](int oc, int b0, const int32_t* acc, int count) {
    for (int i = 0; i < count; ++i)  // input rows along the run: strided output, one channel
      y[static_cast<int64_t>(b0 + i) * o + oc] = requantize(static_cast<int64_t>(acc[i]) + bias[oc], mult[oc],
                                                            shift[oc], out_zp, act_min, act_max, rounding);
  });
}
