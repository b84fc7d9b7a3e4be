// Twin of engine/ops/quantize.py: float -> int8 codes; mode 0 half away from zero (TFLite), 1 half to even (ONNX).
#include <cmath>
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_quantize(const float* x, int64_t count, float scale, int zp, int mode, int8_t* y) {
  for (int64_t i = 0; i < count; ++i) {
    const float v = x[i] / scale;
    const float r = mode == 0 ? std::round(v) : std::nearbyint(v);
    y[i] = saturate(static_cast<int64_t>(r) + zp, -128, 127);
  }
}
