// Twin of engine/ops/gemm.py: fully connected, weight (o, k), per-channel multipliers.
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_gemm(const int8_t* x, int n, int k, const int8_t* weight, int o, const int32_t* bias,
                         int in_zp, int out_zp, const int32_t* mult, const int32_t* shift,
                         int act_min, int act_max, int rounding, int8_t* y) {
  for (int b = 0; b < n; ++b) {
    const int8_t* xr = x + static_cast<int64_t>(b) * k;
    for (int oc = 0; oc < o; ++oc) {
      const int8_t* wr = weight + static_cast<int64_t>(oc) * k;
      int32_t acc = 0;  // loop
      for (int i = 0; i < k; ++i) acc += (static_cast<int32_t>(xr[i]) - in_zp) * static_cast<int32_t>(wr[i]);
      acc += bias[oc];  // epilogue
      y[static_cast<int64_t>(b) * o + oc] = requantize(acc, mult[oc], shift[oc], out_zp, act_min, act_max, rounding);
    }
  }
}
