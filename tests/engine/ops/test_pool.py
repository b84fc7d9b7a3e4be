"""MaxPool / AveragePool with ceil_mode and SAME padding: bit-exact against LiteRT BUILTIN_REF."""
import pytest
from onnx import helper as h

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402

from npuready.engine.ops.window import ceil_extra, same_pads  # noqa: E402


def test_ceil_extra_and_same_pads_follow_onnx_output_sizes():
    assert ceil_extra(31, 3, 2, 0, 0) == 0      # (31-3)/2 exact: 15 windows either way
    assert ceil_extra(32, 3, 2, 0, 0) == 1      # ceil: 16 windows, the last one reads one padded column
    assert ceil_extra(5, 2, 2, 1, 1) == 0       # a window starting in the end padding is dropped
    assert same_pads(32, 3, 2) == (0, 1) and same_pads(32, 3, 2, lower=True) == (1, 0)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("attrs", [
    {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1},             # SqueezeNet 1.1
    {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1},
    {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "SAME_UPPER"},
    {"kernel_shape": [5, 5], "strides": [1, 1], "pads": [2, 2, 2, 2]},      # YOLOv8 SPPF
], ids=["ceil", "ceil-pads", "same", "sppf"])
def test_maxpool_matches_litert(attrs, seed):
    node = h.make_node("MaxPool", ["x"], ["y"], **attrs)
    model, x = qdq_model([node], ["y"], [1, 4, 10, 10], seed=seed)
    assert_bitexact(model, x, ["MaxPool"])


@pytest.mark.parametrize("attrs", [
    {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"},
    {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [0, 0, 1, 1], "ceil_mode": 1},  # = SAME on 10×10
], ids=["same", "ceil-as-same"])
def test_avgpool_matches_litert(attrs):
    node = h.make_node("AveragePool", ["x"], ["y"], **attrs)
    model, x = qdq_model([node], ["y"], [1, 4, 10, 10], seed=3)
    assert_bitexact(model, x, ["AveragePool"])
