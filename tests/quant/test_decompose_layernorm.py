"""LayerNormalization decomposed before calibration into the int8 op sequence a converter emits: the float
graph computes the same values, and its QDQ build runs on both integer engines and on LiteRT BUILTIN_REF
with 0 mismatched tensors (the ViT path of experiment bitexact-realworld)."""
import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from npuready.quant.decompose_layernorm import decompose_layernorm


def _layernorm_model(shape, axis=-1, beta=True, seed=0):
    rng = np.random.default_rng(seed)
    norm = shape[axis % len(shape):]
    inits = [nh.from_array(rng.uniform(0.5, 1.5, norm).astype(np.float32), "gamma")]
    ins = ["x", "gamma"]
    if beta:
        inits.append(nh.from_array(rng.normal(0, 0.2, norm).astype(np.float32), "beta"))
        ins.append("beta")
    node = h.make_node("LayerNormalization", ins, ["y"], name="ln", axis=axis, epsilon=1e-5)
    g = h.make_graph([h.make_node("Relu", ["x"], ["r"]), h.make_node("Add", ["r", "x"], ["a"]),
                      node], "ln", [h.make_tensor_value_info("x", T.FLOAT, shape)],
                     [h.make_tensor_value_info("y", T.FLOAT, shape)], initializer=inits)
    g.node[2].input[0] = "a"
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def _run(model, x):
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, {"x": x})[0]


@pytest.mark.parametrize("shape,axis,beta", [([1, 5, 16], -1, True), ([1, 4, 3, 6], 2, True), ([1, 7, 8], -1, False)])
def test_decomposed_graph_computes_layernorm(shape, axis, beta):
    model = _layernorm_model(shape, axis, beta)
    out, count = decompose_layernorm(model)
    assert count == 1
    ops = [n.op_type for n in out.graph.node]
    assert ops == ["Relu", "Add", "ReduceMean", "Mul", "Add", "Mul", "ReduceMean", "Add", "Pow", "Mul", "Mul"] + \
        (["Add"] if beta else [])
    x = np.random.default_rng(1).normal(0, 2, shape).astype(np.float32)
    np.testing.assert_allclose(_run(out, x), _run(model, x), rtol=0, atol=2e-5)


def test_a_model_without_layernorm_is_returned_unchanged():
    model = _layernorm_model([1, 5, 16])
    del model.graph.node[2]
    model.graph.output[0].name = "a"
    out, count = decompose_layernorm(model)
    assert count == 0 and out == model


@pytest.mark.parametrize("seed", [0, 1])
def test_quantised_decomposition_is_bitexact_with_litert_on_both_engines(seed):
    pytest.importorskip("ai_edge_litert")
    from npuready.engine import cpp_engine, numpy_engine
    from npuready.engine.export import export_integer_graph
    from npuready.quant.ptq import quantize_model
    from npuready.verify.litert_oracle import compare_with_litert

    fm, _ = decompose_layernorm(_layernorm_model([1, 6, 24], seed=seed))
    rng = np.random.default_rng(seed + 10)
    x = rng.normal(0, rng.uniform(0.5, 3), (16, 6, 24)).astype(np.float32)
    qdq = quantize_model(fm, [x[i:i + 1] for i in range(8)])
    graph = export_integer_graph(qdq)
    assert [op.kind for op in graph.ops if op.kind != "Constant"] == \
        ["Quantize", "Rescale", "Add", "Mean", "Mul", "Add", "Mul", "Mean", "Add", "Lut", "Mul", "Mul", "Add"]
    a, b = numpy_engine.run(graph, x), cpp_engine.run(graph, x)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    s = compare_with_litert(qdq, x, graph, optimized=False).summary()
    assert s["tensors_compared"] == 16 * 13  # every op above, input Quantize included
    assert s["tensors_mismatched"] == 0
    assert s["elements_mismatched_propagated"] == 0 and s["elements_mismatched_local"] == 0
