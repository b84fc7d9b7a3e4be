"""A LayerNorm written as primitives (Paddle2ONNX, old torch opsets) is put in the int8 form before quantising."""
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from npuready.quant.prepare import fold_constants
from npuready.quant.primitive_layernorm import rewrite_primitive_layernorm


def _const(name, value):
    return h.make_node("Constant", [], [name], value=nh.from_array(np.asarray(value, np.float32), name))


def primitive_layernorm_model() -> onnx.ModelProto:
    rng = np.random.default_rng(3)
    nodes = [_const("two", 2.0), _const("eps", 1e-5),
             h.make_node("MatMul", ["x", "w"], ["t"], name="proj"),
             h.make_node("ReduceMean", ["t"], ["m"], axes=[-1], name="mean"),
             h.make_node("Sub", ["t", "m"], ["d"], name="center"),
             h.make_node("Pow", ["d", "two"], ["sq"], name="square"),
             h.make_node("ReduceMean", ["sq"], ["v"], axes=[-1], name="var"),
             h.make_node("Add", ["v", "eps"], ["ve"], name="add_eps"),
             h.make_node("Sqrt", ["ve"], ["s"], name="sqrt"),
             h.make_node("Div", ["d", "s"], ["n"], name="div"),
             h.make_node("Mul", ["n", "gamma"], ["g"], name="scale"),
             h.make_node("Add", ["g", "beta"], ["y"], name="shift")]
    inits = [nh.from_array(rng.normal(size=(8, 8)).astype(np.float32), "w"),
             nh.from_array(rng.uniform(0.5, 1.5, 8).astype(np.float32), "gamma"),
             nh.from_array(rng.normal(size=8).astype(np.float32), "beta")]
    g = h.make_graph(nodes, "ln", [h.make_tensor_value_info("x", T.FLOAT, [1, 5, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 5, 8])], initializer=inits)
    return onnx.shape_inference.infer_shapes(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]))


def _run(model, x):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_rewrites_the_pattern_into_mul_and_reciprocal_sqrt_pow_with_the_same_values():
    model = fold_constants(primitive_layernorm_model())
    out, count = rewrite_primitive_layernorm(model)
    assert count == 1
    assert [n.op_type for n in out.graph.node] == ["MatMul", "ReduceMean", "Sub", "Mul", "ReduceMean", "Add", "Pow",
                                                  "Mul", "Mul", "Add"]
    pow_node = next(n for n in out.graph.node if n.op_type == "Pow")
    inits = {t.name: nh.to_array(t) for t in out.graph.initializer}
    assert float(inits[pow_node.input[1]]) == -0.5 and pow_node.input[0] == "ve"
    x = np.random.default_rng(4).normal(size=(1, 5, 8)).astype(np.float32)
    np.testing.assert_allclose(_run(out, x), _run(model, x), rtol=1e-5, atol=1e-5)


def test_leaves_a_pow_that_is_not_a_norm_alone():
    model = fold_constants(primitive_layernorm_model())
    sqrt = next(n for n in model.graph.node if n.op_type == "Sqrt")
    sqrt.op_type = "Exp"  # no longer d / sqrt(mean(d²) + eps)
    out, count = rewrite_primitive_layernorm(model)
    assert count == 0 and [n.op_type for n in out.graph.node] == [n.op_type for n in model.graph.node]


def test_quantised_primitive_layernorm_builds_as_integers_bit_exact_with_litert():
    pytest.importorskip("ai_edge_litert")
    from npuready.engine.export import export_integer_graph
    from npuready.quant.ptq import quantize_model
    from npuready.verify.litert_oracle import compare_with_litert

    rng = np.random.default_rng(5)
    x = rng.normal(size=(6, 1, 5, 8)).astype(np.float32)
    qdq = quantize_model(primitive_layernorm_model(), list(x), "minmax")
    graph = export_integer_graph(qdq)  # refused before: "p2o.Pow.0 output is not followed by a QuantizeLinear"
    assert [op.kind for op in graph.ops if op.kind != "Constant"] == [
        "Quantize", "Gemm", "Mean", "Add", "Mul", "Mean", "Add", "Lut", "Mul", "Mul", "Add"]
    rep = compare_with_litert(qdq, x[:, 0], graph, optimized=False)
    assert rep.tensors_mismatched == 0 and rep.tensors_compared > 0
