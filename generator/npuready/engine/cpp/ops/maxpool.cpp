// Twin of engine/ops/maxpool.py: max over each window's real elements (padding ignored); rescale separately.
#include "window.h"

using namespace npuready;

namespace {
struct MaxWindow {
  int m = -129;
  void add(int v) { if (v > m) m = v; }
  int8_t result() const { return static_cast<int8_t>(m); }
};
}  // namespace

extern "C" void npr_maxpool(const int8_t* x, int n, int c, int h, int w, int kh, int kw, int sh, int sw,
                            int pt, int pl, int oh, int ow, int8_t* y) {
  pool_windows<MaxWindow>(x, n, c, h, w, kh, kw, sh, sw, pt, pl, oh, ow, y);
}
