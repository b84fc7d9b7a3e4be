"""trained-thirdparty: the layers named responsible for a task miss, and the per-model verdict."""
from types import SimpleNamespace

import pytest
from onnx import helper as h

from npuready.experiments.runners.trained_thirdparty import _verdict, responsible
from npuready.verify.drift import TensorDrift


def _qdq():
    # x -Q/DQ-> conv -Q/DQ-> relu -Q/DQ-> y: drift rows for x_q, c_q, y_q
    nodes = [h.make_node("QuantizeLinear", ["x", "s", "z"], ["x_q"]),
             h.make_node("DequantizeLinear", ["x_q", "s", "z"], ["x_dq"]),
             h.make_node("Conv", ["x_dq", "w_dq"], ["c"], name="conv"),
             h.make_node("QuantizeLinear", ["c", "s", "z"], ["c_q"]),
             h.make_node("DequantizeLinear", ["c_q", "s", "z"], ["c_dq"]),
             h.make_node("Relu", ["c_dq"], ["y"], name="relu"),
             h.make_node("QuantizeLinear", ["y", "s", "z"], ["y_q"])]
    return SimpleNamespace(graph=SimpleNamespace(node=nodes))


def test_responsible_names_the_op_that_adds_the_error_not_the_one_that_inherits_it():
    drift = (TensorDrift("x_q", "x", "", (), 0.001),        # 60 dB
             TensorDrift("c_q", "c", "conv", ("w",), 0.1),   # 20 dB: the conv drops 40 dB
             TensorDrift("y_q", "y", "relu", (), 0.1))       # 20 dB: relu adds nothing
    ladder = SimpleNamespace(drift=drift, first_gross=None)
    r = responsible(_qdq(), ladder)
    assert [d["op"] for d in r["largest_sqnr_drops"]] == ["conv", "relu"]
    assert r["largest_sqnr_drops"][0] == {"op": "conv", "op_type": "Conv", "tensor": "c", "sqnr_in_db": 60.0,
                                          "sqnr_db": 20.0, "drop_db": 40.0}
    assert r["largest_sqnr_drops"][1]["drop_db"] == 0.0
    assert r["first_gross"] is None and r["lowest_sqnr"]["op"] == "conv"


def test_verdict_prefers_the_integer_rung_and_names_the_responsible_op():
    score = {"metric": "CTC string equality", "value": 0.5, "unit": "", "limit": 0.95, "passed": False}
    m = {"ladder": {"task_scores": {"fake_quant_vs_float": {**score, "value": 0.6},
                                    "integer_vs_float": score}},
         "responsible": {"largest_sqnr_drops": [{"op": "p2o.Conv.30"}], "first_gross": None}}
    v = _verdict(m)
    assert v == {"rung": "integer_vs_float", "metric": "CTC string equality", "value": 0.5, "unit": "",
                 "limit": 0.95, "passed": False, "responsible": "p2o.Conv.30"}


@pytest.mark.parametrize("passed", [True])
def test_verdict_of_a_passing_fake_quant_only_model_names_nobody(passed):
    m = {"ladder": {"task_scores": {"fake_quant_vs_float": {"metric": "IoU", "value": 0.93, "unit": "",
                                                            "limit": 0.9, "passed": passed}}}}
    assert _verdict(m) == {"rung": "fake_quant_vs_float", "metric": "IoU", "value": 0.93, "unit": "", "limit": 0.9,
                           "passed": True}
