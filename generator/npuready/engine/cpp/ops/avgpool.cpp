// Twin of engine/ops/avgpool.py: integer mean of each window's real elements; rescale separately.
#include "../fixedpoint.h"
#include "window.h"

using namespace npuready;

namespace {
struct MeanWindow {
  int32_t acc = 0;
  int count = 0;
  void add(int v) { acc += v; ++count; }
  int8_t result() const { return static_cast<int8_t>(rounding_divide(acc, count)); }
};
}  // namespace

extern "C" void npr_avgpool(const int8_t* x, int n, int c, int h, int w, int kh, int kw, int sh, int sw,
                            int pt, int pl, int oh, int ow, int8_t* y) {
  pool_windows<MeanWindow>(x, n, c, h, w, kh, kw, sh, sw, pt, pl, oh, ow, y);
}
