"""HardSigmoid → [Mul] + Add + Clip(0, 6) + Mul(1/6) before quantisation (npuready.quant.decompose_hardsigmoid):
the float result is unchanged, the int8 build is bit-exact with LiteRT, and the int8 TFLite has no GATHER."""
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.quant.decompose_hardsigmoid import decompose_hardsigmoid


def _model(alpha=None, beta=None):
    attrs = {k: v for k, v in (("alpha", alpha), ("beta", beta)) if v is not None}
    w = numpy_helper.from_array(np.random.default_rng(0).normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32), "w")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("HardSigmoid", ["c"], ["h"], name="gate", **attrs),
             helper.make_node("Mul", ["c", "h"], ["y"], name="scale")]
    g = helper.make_graph(nodes, "hs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])], [w])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _run(model, x):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


@pytest.mark.parametrize("alpha,beta,ops", [
    (1 / 6, 0.5, ["Conv", "Add", "Clip", "Mul", "Mul"]),        # PyTorch's Hardsigmoid: no scaling Mul
    (None, None, ["Conv", "Mul", "Add", "Clip", "Mul", "Mul"]),  # ONNX defaults α = 0.2, β = 0.5
])
def test_rewrite_keeps_float_result(alpha, beta, ops):
    m = _model(alpha, beta)
    out, count = decompose_hardsigmoid(m)
    onnx.checker.check_model(out)
    assert count == 1 and [n.op_type for n in out.graph.node] == ops
    x = np.random.default_rng(1).normal(0, 2, (1, 3, 8, 8)).astype(np.float32)
    np.testing.assert_allclose(_run(out, x), _run(m, x), rtol=1e-5, atol=1e-6)
    assert [n.op_type for n in m.graph.node] == ["Conv", "HardSigmoid", "Mul"]  # the input is not touched


def test_model_without_hardsigmoid_is_returned_as_a_copy():
    m = _model()
    del m.graph.node[1:]
    out, count = decompose_hardsigmoid(m)
    assert count == 0 and out is not m and out == m


def test_int8_build_is_bit_exact_with_litert_and_has_no_gather():
    pytest.importorskip("ai_edge_litert")
    from ai_edge_litert import schema_py_generated as fb

    from npuready.engine.export import export_integer_graph
    from npuready.quant.ptq import quantize_model
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.verify.litert_oracle import compare_with_litert

    rng = np.random.default_rng(2)
    calib = [rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for _ in range(8)]
    qdq = quantize_model(_model(1 / 6, 0.5), calib, "minmax")
    assert "HardSigmoid" not in {n.op_type for n in qdq.graph.node}
    report = compare_with_litert(qdq, np.concatenate(calib[:3]), export_integer_graph(qdq), optimized=False,
                                 model_name="hs")
    assert report.tensors_compared > 0 and report.tensors_mismatched == 0
    tfl = fb.ModelT.InitFromObj(fb.Model.GetRootAsModel(export_int8_from_qdq(qdq), 0))
    codes = {tfl.operatorCodes[op.opcodeIndex].builtinCode for op in tfl.subgraphs[0].operators}
    assert fb.BuiltinOperator.GATHER not in codes and fb.BuiltinOperator.ADD in codes
