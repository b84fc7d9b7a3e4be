from onnx import helper

from npuready.graph import load
from npuready.lint.examples import model, value, weights
from npuready.partition.examples import transformer_like, uint8_classifier
from npuready.partition.macs import graph_macs, node_macs


def test_conv_gemm_and_other_ops():
    macs = graph_macs(load(uint8_classifier()))
    assert macs["conv1"] == (1 * 8 * 32 * 32) * (3 * 3 * 3)
    assert macs["conv2"] == (1 * 16 * 16 * 16) * (8 * 3 * 3)
    assert macs["fc"] == 1 * 10 * 16
    assert macs["relu1"] == 0 and macs["to_float"] == 0


def test_matmul_counts_batch_and_rows():
    macs = graph_macs(load(transformer_like()))
    assert macs["blk0_mlp_up"] == (1 * 256 * 32) * 16
    assert macs["blk0_mlp_down"] == (1 * 256 * 16) * 32


def test_grouped_conv_and_conv_transpose():
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="dw", group=4, kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("ConvTranspose", ["y", "wt"], ["z"], name="up", kernel_shape=[2, 2], strides=[2, 2])]
    g = load(model(nodes, [value("x", [1, 4, 8, 8])], [value("z", [1, 6, 16, 16])],
                   [weights("w", (4, 1, 3, 3)), weights("wt", (4, 6, 2, 2))]))
    assert node_macs(g, g.node("dw")) == (1 * 4 * 8 * 8) * (1 * 3 * 3)
    assert node_macs(g, g.node("up")) == (1 * 4 * 8 * 8) * (6 * 2 * 2)


def test_unknown_shape_gives_none():
    nodes = [helper.make_node("MatMul", ["a", "b"], ["y"], name="mm")]
    g = load(model(nodes, [value("a", ["N", 4]), value("b", [4, 3])], [value("y", ["N", 3])]))
    assert node_macs(g, g.node("mm")) is None
