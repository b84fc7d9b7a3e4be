"""Sub, Mul and Div by a constant and by a tensor, SiLU as Sigmoid·x, Concat of differently scaled inputs and
Softmax on a non-last axis: bit-exact against LiteRT BUILTIN_REF on random inputs and scales."""
import numpy as np
import pytest
from onnx import helper as h
from onnx import numpy_helper as nh

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402

from npuready.engine.ops.mul import scalar_operand  # noqa: E402

SHAPE = [1, 4, 6, 6]


def _branch(rng):
    """A second activation from the same input: a 1×1 depthwise Conv with its own output scale."""
    return h.make_node("Conv", ["x", "w"], ["c"], group=4), {"w": rng.standard_normal((4, 1, 1, 1)) * 0.8}


def test_scalar_operand_is_plus_or_minus_127_at_the_value_over_127():
    assert scalar_operand(0.5) == (127, float(np.float32(0.5 / 127)))
    assert scalar_operand(-2.0)[0] == -127 and scalar_operand(0.0) == (0, 1.0)


@pytest.mark.parametrize("op", ["Sub", "Mul", "Add"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_binary_of_two_activations_matches_litert(op, seed):
    conv, w = _branch(np.random.default_rng(seed))
    nodes = [conv, h.make_node(op, ["x", "c"], ["y"])]
    model, x = qdq_model(nodes, ["c", "y"], SHAPE, seed=seed, qconsts=w)
    assert_bitexact(model, x, ["Conv", "Mul" if op == "Mul" else "Add"])


@pytest.mark.parametrize("op", ["Sub", "Mul"])
def test_binary_by_a_per_channel_constant_tensor_matches_litert(op):
    k = {"k": np.random.default_rng(5).standard_normal((1, 4, 1, 1))}
    model, x = qdq_model([h.make_node(op, ["x", "k"], ["y"])], ["y"], SHAPE, seed=5, qconsts=k)
    assert_bitexact(model, x, ["Constant", "Mul" if op == "Mul" else "Add"])


@pytest.mark.parametrize("divisor", [2.0, -3.5, 0.25])
def test_div_by_a_constant_scalar_is_mul_by_its_reciprocal_and_matches_litert(divisor):
    inits = [nh.from_array(np.array(divisor, np.float32), "d")]
    model, x = qdq_model([h.make_node("Div", ["x", "d"], ["y"])], ["y"], SHAPE, seed=6, inits=inits)
    assert_bitexact(model, x, ["Constant", "Mul"])


@pytest.mark.parametrize("seed", [0, 3])
def test_silu_as_sigmoid_times_x_matches_litert(seed):
    nodes = [h.make_node("Sigmoid", ["x"], ["s"]), h.make_node("Mul", ["x", "s"], ["y"])]
    model, x = qdq_model(nodes, ["s", "y"], SHAPE, seed=seed)
    assert_bitexact(model, x, ["Lut", "Mul"])


def test_concat_of_differently_scaled_inputs_matches_litert():
    conv, w = _branch(np.random.default_rng(7))
    nodes = [conv, h.make_node("Concat", ["x", "c"], ["y"], axis=1)]
    model, x = qdq_model(nodes, ["c", "y"], SHAPE, seed=7, qconsts=w)
    assert_bitexact(model, x, ["Conv", "Concat"])


@pytest.mark.parametrize("axis", [1, 2, -1])
def test_softmax_on_any_axis_matches_litert(axis):
    model, x = qdq_model([h.make_node("Softmax", ["x"], ["y"], axis=axis)], ["y"], [1, 5, 4, 3], seed=8)
    assert_bitexact(model, x, ["Softmax"])


@pytest.mark.parametrize("seed", [0, 1])
def test_prelu_with_a_per_channel_slope_matches_litert(seed):
    slope = {"a": np.random.default_rng(seed).uniform(-0.5, 0.5, (4, 1, 1))}
    model, x = qdq_model([h.make_node("PRelu", ["x", "a"], ["y"])], ["y"], SHAPE, seed=seed, qconsts=slope)
    assert_bitexact(model, x, ["PRelu"])


@pytest.mark.parametrize("op,value", [("Sub", np.linspace(-1, 2, 4).reshape(1, 4, 1, 1)), ("Mul", np.array(0.3)),
                                      ("Add", np.array(-1.25))], ids=["sub-tensor", "mul-scalar", "add-scalar"])
def test_binary_by_a_float_constant_left_unquantised_matches_litert(op, value):
    """onnxruntime leaves e.g. Sub's constant in float: both paths quantise it by quantize_operand."""
    inits = [nh.from_array(value.astype(np.float32), "k")]
    model, x = qdq_model([h.make_node(op, ["x", "k"], ["y"])], ["y"], SHAPE, seed=13, inits=inits)
    graph = assert_bitexact(model, x, ["Constant", "Mul" if op == "Mul" else "Add"])
    assert graph.ops[1].params["value"].dtype == np.int8 and int(np.abs(graph.ops[1].params["value"]).max()) == 127
