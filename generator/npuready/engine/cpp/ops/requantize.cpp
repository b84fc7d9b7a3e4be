// Twin of fixedpoint.requantize over a run of accumulators (the fused epilogue of Conv and Gemm), callable on
// its own so the tests can compare the AVX2 run with the scalar one and with the NumPy engine.
#include "../fixedpoint.h"
#include "pairgemm.h"

using namespace npuready;

extern "C" void npr_requantize(const int32_t* acc, int n, const int32_t* bias, const int32_t* mult,
                               const int32_t* shift, int zp, int lo, int hi, int rounding, int8_t* y) {
  // per-element channels (bias, mult, shift have n entries); AVX2 when the active tile kind is AVX2
  const bool simd = pair_tile_kind() == 2 && requantize_simd_ok(mult, shift, n, rounding);
  requantize_run(acc, n, bias, mult, shift, true, zp, lo, hi, rounding, simd, y);
}
