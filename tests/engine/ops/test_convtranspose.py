"""ConvTranspose (DBNet's upsampling head and other geometries): NumPy, C++ and LiteRT BUILTIN_REF (TRANSPOSE_CONV,
STRIDED_SLICE for pads) bit-exact; the NumPy accumulation equals a naive integer scatter loop."""
import numpy as np
import pytest
from onnx import helper as h

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402

from npuready.engine.ops.convtranspose import accumulate  # noqa: E402


def _model(cin, cout, k, seed, shape=(1, 3, 4, 5), relu=False, **attrs):
    rng = np.random.default_rng(seed)
    consts = {"w": rng.standard_normal((cin, cout, k, k)) * 0.4}
    nodes = [h.make_node("ConvTranspose", ["x", "w"], ["y"], kernel_shape=[k, k], **attrs)]
    acts = ["y"]
    if relu:
        nodes.append(h.make_node("Relu", ["y"], ["r"]))
        acts.append("r")
    return qdq_model(nodes, acts, list(shape), seed=seed, qconsts=consts)


@pytest.mark.parametrize("attrs", [{"strides": [2, 2]}, {"strides": [2, 2], "pads": [1, 1, 1, 1]},
                                   {"strides": [3, 2], "pads": [0, 1, 2, 0], "output_padding": [1, 0]},
                                   {"strides": [1, 1]}], ids=["dbnet", "pads", "asymmetric", "stride1"])
def test_convtranspose_matches_litert(attrs):
    model, x = _model(3, 4, 3 if attrs["strides"] != [2, 2] or "pads" in attrs else 2, 1, **attrs)
    assert_bitexact(model, x, ["ConvTranspose"])


def test_convtranspose_with_an_int32_bias_quantised_by_quantize_matches_litert():
    """ppocr-det's last head: [C, 1, 2, 2] weights (one output channel), here with a bias, through npuready quantize."""
    from onnx import TensorProto as T
    from onnx import numpy_helper as nh

    from npuready.quant.ptq import quantize_model

    rng = np.random.default_rng(2)
    g = h.make_graph([h.make_node("ConvTranspose", ["x", "w", "b"], ["y"], kernel_shape=[2, 2], strides=[2, 2])],
                     "up", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 4, 5])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 1, 8, 10])],
                     initializer=[nh.from_array((rng.standard_normal((3, 1, 2, 2)) * 0.4).astype(np.float32), "w"),
                                  nh.from_array(np.array([0.3], np.float32), "b")])
    x = rng.normal(0, 1, (6, 3, 4, 5)).astype(np.float32)
    model = quantize_model(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), [x[i:i + 1] for i in range(6)])
    assert_bitexact(model, x, ["ConvTranspose"])


def test_convtranspose_then_relu_matches_litert():
    model, x = _model(3, 4, 2, 3, strides=[2, 2], relu=True)
    assert_bitexact(model, x, ["ConvTranspose", "Rescale"])


def test_accumulation_equals_a_naive_scatter_loop():
    rng = np.random.default_rng(4)
    w = rng.integers(-127, 128, (2, 3, 3, 3)).astype(np.int8)
    p = {"weight": w, "bias": np.arange(3, dtype=np.int32), "strides": [2, 1], "pads": [1, 0, 0, 1],
         "output_padding": [1, 0], "input_zero_point": 5}
    x = rng.integers(-128, 128, (1, 2, 3, 4)).astype(np.int8)
    full = np.zeros((1, 3, (3 - 1) * 2 + 3 + 1, 4 - 1 + 3), np.int64)
    for c in range(2):
        for iy in range(3):
            for ix in range(4):
                for o in range(3):
                    for i in range(3):
                        for j in range(3):
                            full[0, o, iy * 2 + i, ix + j] += (int(x[0, c, iy, ix]) - 5) * int(w[c, o, i, j])
    want = full[:, :, 1:, :-1] + np.arange(3).reshape(1, 3, 1, 1)
    assert np.array_equal(accumulate(p, x), want)


def test_grouped_convtranspose_is_refused_naming_the_node():
    from npuready.engine.export import export_integer_graph
    from npuready.errors import InputError

    rng = np.random.default_rng(5)
    node = h.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", kernel_shape=[2, 2], strides=[2, 2], group=3)
    model, _ = qdq_model([node], ["y"], [1, 3, 4, 4], seed=5, qconsts={"w": rng.standard_normal((3, 1, 2, 2))})
    with pytest.raises(InputError, match="node up \\(ConvTranspose\\): group 3"):
        export_integer_graph(model)
