"""PRelu with every constant slope form exporters write (scalar, [C] of a rank-2 input, [C,1,1], [1,C,1,1],
[W] broadcast along the last axis; behind a DequantizeLinear, a float initializer or a Constant node):
NumPy, C++ and LiteRT BUILTIN_REF bit-exact."""
import numpy as np
import pytest
from onnx import helper as h
from onnx import numpy_helper as nh

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402

SHAPE = [1, 4, 6, 5]


def _slope(shape, seed):
    return np.random.default_rng(seed).uniform(-0.6, 0.6, shape).astype(np.float32)


@pytest.mark.parametrize("shape", [(), (1,), (4, 1, 1), (1, 4, 1, 1), (5,)],
                         ids=["scalar", "one", "c11", "1c11", "last-axis"])
def test_prelu_slope_behind_a_dequantizelinear_matches_litert(shape):
    model, x = qdq_model([h.make_node("PRelu", ["x", "a"], ["y"])], ["y"], SHAPE, seed=3,
                         qconsts={"a": _slope(shape, 3)})
    graph = assert_bitexact(model, x, ["PRelu"])
    assert graph.ops[1].params["alpha"].shape == shape


@pytest.mark.parametrize("shape", [(), (4, 1, 1), (1, 4, 1, 1)], ids=["scalar", "c11", "1c11"])
def test_prelu_float_slope_left_unquantised_is_quantised_as_tflite_writes_it(shape):
    slope = _slope(shape, 4)
    model, x = qdq_model([h.make_node("PRelu", ["x", "a"], ["y"])], ["y"], SHAPE, seed=4,
                         inits=[nh.from_array(slope, "a")])
    graph = assert_bitexact(model, x, ["PRelu"])
    alpha = graph.ops[1].params["alpha"]
    assert alpha.dtype == np.int8 and int(np.abs(alpha).max()) == 127 and graph.ops[1].params["alpha_zero_point"] == 0


def test_prelu_slope_from_a_constant_node_matches_litert():
    slope = h.make_node("Constant", [], ["a"], value=nh.from_array(_slope((4, 1, 1), 5)))
    model, x = qdq_model([slope, h.make_node("PRelu", ["x", "a"], ["y"])], ["y"], SHAPE, seed=5)
    assert_bitexact(model, x, ["PRelu"])


def test_prelu_after_a_gemm_with_a_per_feature_slope_matches_litert():
    """MTCNN R-Net/O-Net: Gemm → PRelu with slope [C] on a rank-2 activation."""
    rng = np.random.default_rng(6)
    nodes = [h.make_node("Gemm", ["x", "w"], ["g"], transB=1), h.make_node("PRelu", ["g", "a"], ["y"])]
    model, x = qdq_model(nodes, ["g", "y"], [1, 12], seed=6,
                         qconsts={"w": rng.standard_normal((8, 12)) * 0.3, "a": _slope((8,), 6)})
    assert_bitexact(model, x, ["Gemm", "PRelu"])


def test_prelu_with_a_run_time_slope_is_refused_naming_the_node():
    from npuready.engine.export import export_integer_graph
    from npuready.errors import InputError

    nodes = [h.make_node("Relu", ["x"], ["a"]), h.make_node("PRelu", ["x", "a"], ["y"], name="p")]
    model, _ = qdq_model(nodes, ["a", "y"], SHAPE, seed=7)
    with pytest.raises(InputError, match="node p \\(PRelu\\): slope a_dq is not a constant"):
        export_integer_graph(model)
