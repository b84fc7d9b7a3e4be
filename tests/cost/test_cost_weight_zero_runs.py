"""Ethos-U mirrors stream the ENCODED weights: output channels whose weights are all zero (timm's
zero-initialised last BatchNorm of a residual block folds into such a conv) cost no weight bytes there
(Vela's weight codec codes zero runs; regor ElementTransferToBytes reads encodedWeightSize)."""
import numpy as np
from onnx import helper, numpy_helper

from npuready.cost import estimate
from npuready.cost.model import streamed_weight_bytes
from npuready.cost.workload import workload
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi


def _conv(zero_channels: int, cout: int = 16, cin: int = 8):
    w = np.random.default_rng(0).standard_normal((cout, cin, 3, 3)).astype(np.float32)
    w[:zero_channels] = 0.0
    w[zero_channels:, 0, 0, 0] = 0.0  # a zero inside a non-zero channel still costs its byte
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])]
    return load(make_model(nodes, [vi("x", [1, cin, 8, 8])], [vi("y", [1, cout, 8, 8])],
                           [numpy_helper.from_array(w, "w")]))


def _gemm(zero_cols: int):
    b = np.random.default_rng(1).standard_normal((32, 10)).astype(np.float32)
    b[:, :zero_cols] = 0.0
    nodes = [helper.make_node("MatMul", ["x", "b"], ["y"], name="mm")]
    return load(make_model(nodes, [vi("x", [1, 32])], [vi("y", [1, 10])], [numpy_helper.from_array(b, "b")]))


def test_all_zero_output_channels_are_counted():
    g = _conv(6)
    w = workload(g, g.nodes[0])
    assert (w.weight_bytes, w.zero_weight_bytes) == (16 * 8 * 9, 6 * 8 * 9)
    g = _gemm(3)
    w = workload(g, g.nodes[0])
    assert (w.weight_bytes, w.zero_weight_bytes) == (320, 3 * 32)


def test_mirrors_stream_only_the_non_zero_channels():
    g = _conv(6)
    w = workload(g, g.nodes[0])
    assert streamed_weight_bytes(w, load_target("ethos-u55-128")) == 10 * 8 * 9
    assert streamed_weight_bytes(w, load_target("ethos-u65-256")) == 10 * 8 * 9
    assert streamed_weight_bytes(w, load_target("edge-10")) == 16 * 8 * 9  # no weight codec: every byte


def test_zero_channels_shorten_a_weight_bound_layer_on_the_u55_mirror():
    dense, sparse = (estimate(_conv(z), "ethos-u55-128").layers[0] for z in (0, 8))
    # weights come from flash at 1 byte per cycle (0.5 GB/s at 500 MHz); 8 of 16 channels x 72 bytes fewer
    assert dense.memory_cycles - sparse.memory_cycles == 8 * 8 * 9


def test_a_grouped_conv_splits_its_zero_channels_by_group():
    w = np.random.default_rng(2).standard_normal((8, 2, 3, 3)).astype(np.float32)
    w[:3] = 0.0  # group 0 (channels 0-3) has three all-zero channels, group 1 none
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", kernel_shape=[3, 3], group=2)]
    g = load(make_model(nodes, [vi("x", [1, 4, 6, 6])], [vi("y", [1, 8, 4, 4])], [numpy_helper.from_array(w, "w")]))
    from npuready.cost.lowering import lower

    convs = [s for s in lower(g, g.nodes[0], load_target("ethos-u55-128")) if s.vela_op == "Conv2D"]
    assert [(s.work.weight_bytes, s.work.zero_weight_bytes) for s in convs] == [(72, 3 * 18), (72, 0)]
