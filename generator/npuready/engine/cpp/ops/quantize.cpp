// Twin of engine/ops/quantize.py: float -> int8 codes; mode 0 half away from zero (TFLite), 1 half to even (ONNX).
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_quantize(const float* x, int64_t count, float scale, int zp, int mode, int8_t* y) {
  for (int64_t i = 0; i < count; ++i) y[i] = quantize_float(x[i], scale, zp, mode);
}
