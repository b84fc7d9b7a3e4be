// Twin of engine/ops/lut.py: 256-entry table lookup, index = code + 128.
#include <cstdint>

extern "C" void npr_lut(const int8_t* x, int64_t count, const int8_t* table, int8_t* y) {
  for (int64_t i = 0; i < count; ++i) y[i] = table[static_cast<int>(x[i]) + 128];
}
