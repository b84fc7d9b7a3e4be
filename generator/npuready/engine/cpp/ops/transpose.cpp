// Twin of engine/ops/transpose.py: generic N-d permutation (rank <= 8) of int8 codes.
#include <cstdint>

extern "C" void npr_transpose(const int8_t* x, int rank, const int64_t* shape, const int* perm, int8_t* y) {
  int64_t in_stride[8], out_shape[8], idx[8] = {0};
  int64_t total = 1;
  in_stride[rank - 1] = 1;
  for (int d = rank - 2; d >= 0; --d) in_stride[d] = in_stride[d + 1] * shape[d + 1];
  for (int d = 0; d < rank; ++d) { out_shape[d] = shape[perm[d]]; total *= out_shape[d]; }
  for (int64_t i = 0; i < total; ++i) {
    int64_t src = 0;
    for (int d = 0; d < rank; ++d) src += idx[d] * in_stride[perm[d]];
    y[i] = x[src];
    for (int d = rank - 1; d >= 0; --d) {  // odometer increment over the output index
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
}
