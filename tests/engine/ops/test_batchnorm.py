"""Standalone BatchNormalization as a per-channel multiply-add (TFLite: DEPTHWISE_CONV_2D 1×1): NumPy, C++ and
LiteRT BUILTIN_REF bit-exact, with float parameters, parameters behind a DequantizeLinear, ranks 2–4."""
import numpy as np
import pytest
from onnx import helper as h
from onnx import numpy_helper as nh

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402

from npuready.engine.ops.batchnorm import affine, channel_weights  # noqa: E402


def _params(c, seed, gamma_scale=1.0):
    rng = np.random.default_rng(seed)
    return {"gamma": rng.uniform(-1.5, 1.5, c) * gamma_scale, "beta": rng.normal(0, 0.5, c),
            "mean": rng.normal(0, 0.3, c), "var": rng.uniform(0.2, 2.0, c)}


def _bn(params, eps=1e-5, as_qconsts=()):
    inits = [nh.from_array(v.astype(np.float32), k) for k, v in params.items() if k not in as_qconsts]
    qconsts = {k: v for k, v in params.items() if k in as_qconsts}
    node = h.make_node("BatchNormalization", ["x", "gamma", "beta", "mean", "var"], ["y"], epsilon=eps)
    return node, inits, qconsts


def test_channel_weights_are_plus_or_minus_127_and_the_bias_fits_in_2_to_the_30():
    a, b = np.array([0.5, -2.0, 0.0, 1e-9]), np.array([0.1, 0.2, 0.0, 1.0])
    w, scale, bias = channel_weights(a, b, 0.02)
    assert w.tolist() == [127, -127, 0, 0]
    assert scale[2] == np.float32(1.0) and scale[3] > np.float32(1e-9 / 127)
    assert np.all(np.abs(bias.astype(np.int64)) <= 1 << 30)
    assert bias[0] == round(0.1 / float(np.float32(0.02) * scale[0]))


def test_affine_is_gamma_over_root_var_plus_eps():
    a, b = affine([2.0], [1.0], [0.5], [3.0], 1.0)
    assert a.tolist() == [1.0] and b.tolist() == [0.5]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batchnorm_on_the_graph_input_with_float_parameters_matches_litert(seed):
    node, inits, _ = _bn(_params(4, seed))
    model, x = qdq_model([node], ["y"], [1, 4, 5, 6], seed=seed, inits=inits)
    graph = assert_bitexact(model, x, ["BatchNorm"])
    assert graph.ops[1].params["weight"].dtype == np.int8


def test_batchnorm_with_scale_and_bias_behind_a_dequantizelinear_matches_litert():
    """onnxruntime's quantizer stores the scale as int8 and the bias as int32 behind DequantizeLinear."""
    node, inits, q = _bn(_params(4, 3), as_qconsts=("gamma", "beta"))
    model, x = qdq_model([node], ["y"], [1, 4, 5, 6], seed=3, inits=inits, qconsts=q)
    assert_bitexact(model, x, ["BatchNorm"])


def test_batchnorm_after_an_add_followed_by_relu_matches_litert():
    """A BN that cannot fold (after an Add), then a Relu."""
    rng = np.random.default_rng(4)
    node, inits, _ = _bn(_params(3, 4))
    node.input[0] = "s"
    nodes = [h.make_node("Conv", ["x", "w"], ["c"], group=3), h.make_node("Add", ["x", "c"], ["s"]), node,
             h.make_node("Relu", ["y"], ["r"])]
    model, x = qdq_model(nodes, ["c", "s", "y", "r"], [1, 3, 6, 6], seed=4, inits=inits,
                         qconsts={"w": rng.standard_normal((3, 1, 1, 1))})
    assert_bitexact(model, x, ["Conv", "Add", "BatchNorm", "Rescale"])


@pytest.mark.parametrize("shape", [[1, 6], [1, 6, 7]], ids=["rank2", "rank3"])
def test_batchnorm_of_rank_2_and_3_matches_litert(shape):
    node, inits, _ = _bn(_params(6, 5))
    model, x = qdq_model([node], ["y"], shape, seed=5, inits=inits)
    assert_bitexact(model, x, ["BatchNorm"])


def test_batchnorm_with_a_near_dead_channel_keeps_its_bias_in_range_and_matches_litert():
    p = _params(4, 6)
    p["gamma"][1] = 1e-9
    node, inits, _ = _bn(p)
    model, x = qdq_model([node], ["y"], [1, 4, 5, 5], seed=6, inits=inits)
    assert_bitexact(model, x, ["BatchNorm"])
