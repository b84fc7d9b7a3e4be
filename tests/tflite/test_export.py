"""export_float / export_int8_calibrated / export_int8_from_qdq against onnxruntime."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from ai_edge_litert import schema_py_generated as fb
from ai_edge_litert.tools import flatbuffer_utils
from onnx import TensorProto, helper
from tflite_models import FLOAT_MODELS, QDQ_MODELS, conv_relu, fc_softmax, residual, squeeze_excite

from tflite_helpers import random_inputs, session
from npuready.errors import InputError
from npuready.tflite import export_float, export_int8_calibrated, export_int8_from_qdq, run_litert

ZOO = sorted((Path(__file__).resolve().parents[2] / "zoo").glob("*.onnx"))


def _ops(tflite: bytes) -> list[str]:
    model = flatbuffer_utils.convert_bytearray_to_object(bytearray(tflite))
    names = {v: k for k, v in vars(fb.BuiltinOperator).items() if not k.startswith("_")}
    return [names[model.operatorCodes[o.opcodeIndex].builtinCode] for o in model.subgraphs[0].operators]


def _float_parity(model: onnx.ModelProto, n_inputs: int) -> float:
    """Max |TFLite - onnxruntime| / max(1, max|onnxruntime|) over every ONNX tensor the map names.

    That is 1e-5 absolute for tensors within ±1 and relative above: float32 itself resolves only 7.6e-6
    at 64, so trained models' large intermediates differ by a few ULP when the two runtimes accumulate
    in a different order.
    """
    tfl = export_float(model)
    sess = session(model, all_outputs=True)
    names = [o.name for o in sess.get_outputs()]
    worst, compared = 0.0, 0
    for x in random_inputs(model, n_inputs):
        ref = dict(zip(names, sess.run(None, {model.graph.input[0].name: x})))
        got = run_litert(tfl, {model.graph.input[0].name: x})
        for name in got.mapping.outputs:
            assert got.onnx[name].shape == ref[name].shape
        for name, value in got.onnx.items():
            if name in ref:
                scale = max(1.0, float(np.abs(ref[name]).max()))
                worst = max(worst, float(np.abs(value - ref[name]).max()) / scale)
                compared += 1
    assert compared > len(got.mapping.outputs)  # intermediates were compared too
    return worst


@pytest.mark.parametrize("name", sorted(FLOAT_MODELS))
def test_float_matches_onnxruntime_on_every_mapped_tensor(name):
    assert _float_parity(FLOAT_MODELS[name](), 3) <= 1e-5


@pytest.mark.parametrize("path", ZOO, ids=[p.stem for p in ZOO])
def test_float_matches_onnxruntime_on_zoo(path):
    model = onnx.load(path)
    if any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in model.graph.node):
        pytest.skip("QDQ model")
    try:
        export_float(model)
    except InputError as exc:  # e.g. LayerNormalization in the ViT: reported, not a crash
        pytest.skip(str(exc))
    assert _float_parity(model, 2) <= 1e-5


def test_layout_is_nhwc_inside_and_fusions_are_recorded():
    from npuready.graph import load

    model = residual()
    tfl = export_float(load(model, canonical=False))  # its BatchNormalizations as written (the importer folds them)
    got = run_litert(tfl, {"input": random_inputs(model, 1)[0]})
    assert got.mapping.tensors["input"].perm == (0, 2, 3, 1)
    assert got.tflite[got.mapping.tensors["input"].tflite_name].shape == (1, 6, 6, 8)
    assert _ops(tfl) == ["CONV_2D", "CONV_2D", "ADD"]  # BN folded, Relu fused
    by_op = {}
    for n in model.graph.node:
        by_op.setdefault(n.op_type, []).append(n.output[0])
    bn_into_add = by_op["BatchNormalization"][1]  # the second BN feeds Add: it is the conv's real output
    assert set(got.mapping.fused) == set(by_op["Conv"] + by_op["Add"] + by_op["BatchNormalization"][:1])
    assert got.mapping.fused[by_op["Conv"][1]] == bn_into_add and bn_into_add in got.mapping.tensors


def test_hard_sigmoid_lowers_as_a_converter_lowers_it():
    """relu6(6αx + 6β) / 6: ADD (RELU6 fused) + MUL for PyTorch's α = 1/6, a MUL by 6α first otherwise."""
    ops = _ops(export_float(squeeze_excite()))
    assert ops.count("ADD") == 2 and ops.count("MUL") == 2 + 3 and "HARD_SWISH" in ops


def test_unsupported_op_names_node_and_op():
    g = helper.make_graph([helper.make_node("Sin", ["x"], ["y"], name="my_sin")], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    with pytest.raises(InputError, match=r"node 'my_sin': op Sin is not supported"):
        export_float(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))


def test_dynamic_shape_is_refused():
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])])
    with pytest.raises(InputError, match=r"input 'x': shape \[N,4\] is not static"):
        export_float(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))


@pytest.mark.parametrize("build", [fc_softmax, residual, squeeze_excite], ids=["fc_softmax", "residual", "se"])
def test_calibrated_int8_is_full_integer_and_agrees_with_float(build):
    model = build()
    xs = random_inputs(model, 8)
    tfl = export_int8_calibrated(model, xs)
    ops = _ops(tfl)
    assert "QUANTIZE" not in ops and "DEQUANTIZE" not in ops  # int8 in, int8 out, int8 inside
    sess = session(model)
    agree = 0
    for x in xs:
        got = run_litert(tfl, {"input": x}, reference=True)
        out = got.mapping.outputs[0]
        assert got.onnx[out].dtype == np.int8
        agree += int(got.dequantized(out).argmax() == sess.run(None, {"input": x})[0].argmax())
    assert agree >= 6


def _int8_weights(tfl: bytes, name: str) -> np.ndarray:
    model = flatbuffer_utils.convert_bytearray_to_object(bytearray(tfl))
    for t in model.subgraphs[0].tensors:
        if (t.name.decode() if isinstance(t.name, bytes) else t.name) == name:
            return np.frombuffer(bytes(model.buffers[t.buffer].data), np.int8).reshape(t.shape)
    raise KeyError(name)


@pytest.mark.parametrize("name", sorted(QDQ_MODELS))
def test_qdq_export_matches_onnxruntime_qdq_within_two_lsb(name, qdq):
    model = QDQ_MODELS[name]()
    xs = random_inputs(model, 6)
    qmodel = qdq(model, xs)
    tfl = export_int8_from_qdq(qmodel)
    sess = session(qmodel)
    for x in xs[:3]:
        got = run_litert(tfl, {"input": x})
        for o, ref in zip(sess.get_outputs(), sess.run(None, {"input": x})):
            scale = got.qparams[got.mapping.tensors[o.name].tflite_name][0]
            assert np.abs(got.dequantized(o.name) - ref).max() <= 2 * scale + 1e-6


def test_qdq_export_uses_the_qdq_integers_and_scales(qdq):
    model = conv_relu()
    qmodel = qdq(model, random_inputs(model, 4))
    tfl = export_int8_from_qdq(qmodel)
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in qmodel.graph.initializer}
    dq = next(n for n in qmodel.graph.node if n.op_type == "DequantizeLinear" and n.input[0] in inits
              and inits[n.input[0]].ndim == 4)
    assert np.array_equal(_int8_weights(tfl, dq.output[0]), inits[dq.input[0]].transpose(0, 2, 3, 1))
    got = run_litert(tfl, {"input": random_inputs(model, 1)[0]})
    assert got.qparams["input"] == (pytest.approx(float(inits["input_scale"])), int(inits["input_zero_point"]))
    assert got.mapping.adjustments == ()


def test_qdq_softmax_scale_is_adjusted_and_recorded(qdq):
    model = fc_softmax()
    tfl = export_int8_from_qdq(qdq(model, random_inputs(model, 4)))
    got = run_litert(tfl, {"input": random_inputs(model, 1)[0]})
    assert len(got.mapping.adjustments) == 1 and "SOFTMAX int8 output must be scale 0.00390625" in \
        got.mapping.adjustments[0]
    assert _ops(tfl)[-2:] == ["SOFTMAX", "QUANTIZE"]


def test_float_model_is_refused_by_qdq_exporter():
    with pytest.raises(InputError, match="no QuantizeLinear nodes"):
        export_int8_from_qdq(conv_relu())


def test_transformer_ops_lower_to_builtins():
    from tflite_models import vit_block

    model = vit_block()
    tfl = export_float(model)
    ops = _ops(tfl)
    for op in ("GELU", "GATHER", "STRIDED_SLICE", "BATCH_MATMUL", "RSQRT", "FULLY_CONNECTED", "SOFTMAX"):
        assert op in ops
    chain = [n.output[0] for n in model.graph.node if n.op_type in ("Div", "Erf")]
    got = run_litert(tfl, {"input": random_inputs(model, 1)[0]})
    assert all(name in got.mapping.fused for name in chain)


def test_qdq_export_is_bit_identical_to_the_integer_engine(qdq):
    """The exporter keeps the QDQ integers: LiteRT REF and npuready's NumPy engine agree on every tensor."""
    from npuready.engine import numpy_engine
    from npuready.engine.export import export_integer_graph

    for build in (QDQ_MODELS["residual"], QDQ_MODELS["pooling"], QDQ_MODELS["depthwise"]):
        model = build()
        xs = random_inputs(model, 3)
        qmodel = qdq(model, xs)
        graph, tfl = export_integer_graph(qmodel), export_int8_from_qdq(qmodel)
        compared = 0
        for x in xs:
            engine = numpy_engine.run(graph, x)
            got = run_litert(tfl, {"input": x}, input_rounding="half_away")
            for name, codes in engine.items():
                assert np.array_equal(got.onnx[name], codes.reshape(got.onnx[name].shape)), name
                compared += 1
        assert compared >= 3 * 3


def test_int8_exports_compile_in_vela_without_cpu_fallback(tmp_path, qdq):
    import subprocess
    import sys

    vela = Path(sys.executable).parent / "vela"
    if not vela.exists():
        pytest.skip("ethos-u-vela not installed")
    model = QDQ_MODELS["residual"]()
    xs = random_inputs(model, 4)
    for kind, tfl in (("calibrated", export_int8_calibrated(model, xs)), ("qdq", export_int8_from_qdq(qdq(model, xs)))):
        path = tmp_path / f"{kind}.tflite"
        path.write_bytes(tfl)
        run = subprocess.run([str(vela), str(path), "--accelerator-config", "ethos-u55-128", "--output-dir",
                              str(tmp_path / kind)], capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        assert "CPU operators = 0 (0.0%)" in run.stdout
