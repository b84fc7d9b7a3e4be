// Twin of engine/ops/concat.py: join already-rescaled parts along an axis (outer x part x inner blocks).
#include <cstdint>
#include <cstring>

extern "C" void npr_concat(const int8_t** parts, const int64_t* part_sizes, int count, int64_t outer, int64_t inner,
                           int8_t* y) {
  int64_t total = 0;
  for (int p = 0; p < count; ++p) total += part_sizes[p];
  for (int64_t o = 0; o < outer; ++o) {
    int64_t offset = 0;
    for (int p = 0; p < count; ++p) {
      const int64_t block = part_sizes[p] * inner;
      std::memcpy(y + (o * total + offset) * inner, parts[p] + o * block, static_cast<size_t>(block));
      offset += part_sizes[p];
    }
  }
}
