"""Parity ladder: structure and the exact properties of ops that are exact in both paths."""
import numpy as np
import onnx

from npuready.engine.export import export_integer_graph
from npuready.quant.inputs import load_inputs
from npuready.verify.ladder import run_ladder


def test_ladder_reports_every_tensor_and_rungs(ladder_files):
    data = load_inputs(str(ladder_files["data"]))
    fm, qm = onnx.load(ladder_files["float"]), onnx.load(ladder_files["qdq"])
    r = run_ladder(fm, qm, data.x, data.labels)
    graph = export_integer_graph(qm)
    assert [t.op for t in r.tensors] == [op.name for op in graph.ops]
    assert set(r.accuracy) == {"float", "fake_quant", "integer"}
    assert r.accuracy["float"] == 1.0  # labels are the float predictions
    assert set(r.agreement) == {"fake_quant_vs_float", "integer_vs_float", "integer_vs_fake_quant"}
    by_kind = {t.kind: t for t in r.tensors}
    # max-pooling and reshaping commute with quantisation: from identical inputs they are exact
    assert by_kind["MaxPool"].mismatch_local == 0.0 and by_kind["Reshape"].mismatch_local == 0.0
    assert r.first_divergence is None or r.first_divergence in {t.op for t in r.tensors}
    assert r.explanation and isinstance(r.explanation[0], str)


def test_cpp_engine_gives_the_same_ladder(ladder_files):
    data = load_inputs(str(ladder_files["data"]), 6)
    fm, qm = onnx.load(ladder_files["float"]), onnx.load(ladder_files["qdq"])
    a = run_ladder(fm, qm, data.x, data.labels, engine="numpy").to_dict()
    b = run_ladder(fm, qm, data.x, data.labels, engine="cpp").to_dict()
    a.pop("engine"), b.pop("engine")
    assert a == b


def test_explanation_when_everything_matches():
    from npuready.verify.explain import explain
    from npuready.verify.ladder import LadderResult, TensorParity

    t = TensorParity("c", "Conv", "c_q", "c", "double", 10, 0.0, 0.0, 0, 0)
    r = LadderResult("m", 1, "tflite-ref", "numpy", {}, {"integer_vs_fake_quant": 1.0}, (t,))
    assert explain(r) == ["Every int8 tensor of the integer engine equals the fake-quant codes: the two paths "
                          "are bit-identical on these inputs."]
    assert np.isclose(r.agreement["integer_vs_fake_quant"], 1.0)
