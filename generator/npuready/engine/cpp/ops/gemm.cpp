// Twin of engine/ops/gemm.py: fully connected, weight (o, k) packed as pairgemm.h's pairs, per-channel
// multipliers. The rows of x (zero point removed) are packed as pairgemm.h's columns, so acc[oc][row] comes
// from the shared pair product; each accumulator is requantised as soon as it is complete (fused epilogue).
#include "../fixedpoint.h"
#include "pairgemm.h"

using namespace npuready;

extern "C" void npr_gemm(const int8_t* x, int n, int k, const int32_t* weight_pairs, int o, const int32_t* bias,
                         int in_zp, int out_zp, const int32_t* mult, const int32_t* shift,
                         int act_min, int act_max, int rounding, int8_t* y) {
  PairCols col(k, n);
  for (int i = 0; i < k; ++i) {
    int16_t* d = col.row(i);
    for (int b = 0; b < n; ++b) d[2 * b] = static_cast<int16_t>(x[static_cast<int64_t>(b) * k + i] - in_zp);
  }
  pair_gemm(weight_pairs, o, col, [&](int oc, int b, int32_t acc) {  // loop, then epilogue
    y[static_cast<int64_t>(b) * o + oc] = requantize(static_cast<int64_t>(acc) + bias[oc], mult[oc], shift[oc],
                                                     out_zp, act_min, act_max, rounding);
  });
}
