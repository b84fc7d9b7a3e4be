"""Unary functions as 256-entry tables: TFLite's own kernels (Sigmoid, Tanh, HardSwish, LeakyRelu) and the
engine's tables exported as CAST + ADD + GATHER where TFLite has no int8 kernel (HardSigmoid, Erf, Div → Erf);
an elementwise result quantised only after a layout op (MobileNetV3's HardSwish → Flatten)."""
import numpy as np
import pytest
from onnx import helper as h
from onnx import numpy_helper as nh

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402

SHAPE = [1, 3, 5, 5]


@pytest.mark.parametrize("op,attrs", [("Sigmoid", {}), ("Tanh", {}), ("HardSwish", {}),
                                      ("LeakyRelu", {"alpha": 0.1}), ("HardSigmoid", {"alpha": 1 / 6}),
                                      ("Erf", {})])
@pytest.mark.parametrize("seed", [0, 1])
def test_unary_table_matches_litert(op, attrs, seed):
    model, x = qdq_model([h.make_node(op, ["x"], ["y"], **attrs)], ["y"], SHAPE, seed=seed)
    graph = assert_bitexact(model, x, ["Lut"])
    assert graph.ops[1].params["function"] == op


def test_div_erf_chain_is_one_table_and_matches_litert():
    nodes = [h.make_node("Div", ["x", "r2"], ["d"]), h.make_node("Erf", ["d"], ["y"])]
    model, x = qdq_model(nodes, ["y"], SHAPE, seed=3, inits=[nh.from_array(np.array(1.4142135, np.float32), "r2")])
    graph = assert_bitexact(model, x, ["Lut"])
    assert graph.ops[1].params["function"] == "Div→Erf"


def test_hardswish_quantised_after_flatten_matches_litert():
    nodes = [h.make_node("HardSwish", ["x"], ["a"]), h.make_node("Flatten", ["a"], ["y"])]
    model, x = qdq_model(nodes, ["y"], SHAPE, seed=4)
    graph = assert_bitexact(model, x, ["Lut"])
    assert graph.batchable and graph.ops[1].params["function"] == "HardSwish→Flatten"
    assert graph.ops[1].params["full_shape"] == [1, 75]



@pytest.mark.parametrize("seed", [0, 1, 2])
def test_add_pow_chain_is_one_rsqrt_table_and_matches_litert(seed):
    """A decomposed LayerNorm's (v + ε)^-½: one table exported to LiteRT (CAST + ADD + GATHER)."""
    nodes = [h.make_node("Add", ["x", "eps"], ["v"]), h.make_node("Pow", ["v", "e"], ["y"])]
    inits = [nh.from_array(np.array(13.0, np.float32), "eps"), nh.from_array(np.array(-0.5, np.float32), "e")]
    model, x = qdq_model(nodes, ["v", "y"], SHAPE, seed=seed, inits=inits)
    graph = assert_bitexact(model, x, ["Constant", "Add", "Lut"])  # ε is a quantised constant operand
    assert graph.ops[-1].params["function"] == "Pow"


def test_table_codes_outside_the_domain_saturate():
    from npuready.engine.fixedpoint import quantize_table

    t = quantize_table(lambda v: v ** -0.5, 0.1, 0, 0.05, -128)  # code 0 → +inf, codes < 0 → NaN
    assert t[128] == 127 and all(int(v) == 127 for v in t[:128])
    assert int(t[128 + 100]) == int(np.floor(10 ** -0.5 / np.float32(0.05) + 0.5)) - 128
    t = quantize_table(lambda v: -(v ** -1.0), 0.1, 0, 0.05, 0)  # code 0 → -inf
    assert t[128] == -128
