// Twin of engine/ops/mul.py: TFLite reference int8 Mul (inputs already broadcast).
#include "../fixedpoint.h"

using namespace npuready;

extern "C" void npr_mul(const int8_t* a, const int8_t* b, int64_t count, int zp1, int zp2, int32_t m, int s,
                        int out_zp, int act_min, int act_max, int rounding, int8_t* y) {
  for (int64_t i = 0; i < count; ++i) {
    const int32_t prod = (static_cast<int32_t>(a[i]) - zp1) * (static_cast<int32_t>(b[i]) - zp2);
    y[i] = requantize(prod, m, s, out_zp, act_min, act_max, rounding);
  }
}
