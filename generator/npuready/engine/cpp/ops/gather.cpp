// Twin of engine/ops/gather.py: take constant indices along one axis (outer x dim x inner blocks).
#include <cstdint>
#include <cstring>

extern "C" void npr_gather(const int8_t* x, int64_t outer, int64_t dim, int64_t inner, const int64_t* indices,
                           int64_t count, int8_t* y) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < count; ++i) {
      const int64_t k = indices[i] < 0 ? indices[i] + dim : indices[i];
      std::memcpy(y + (o * count + i) * inner, x + (o * dim + k) * inner, static_cast<size_t>(inner));
    }
}
