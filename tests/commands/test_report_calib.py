"""`report --calib` ends with the ladder, the gate verdict and its cause: the reason behind its exit code."""
import json
from dataclasses import dataclass

from npuready.cli import main
from npuready.paths import zoo_dir
from npuready.report.ladder_line import ladder_line

ARGS = [str(zoo_dir() / "tinycnn.onnx"), "--target", "edge-10", "--stages", "quantize", "--calib",
        "fashion-mnist:test", "--images", "8"]


def test_passing_gate_is_the_last_line(tmp_path, capsys):
    assert main(["report", *ARGS, "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    doc = json.loads((tmp_path / "result.json").read_text())
    assert len(lines) == 2 and lines[-1] == ladder_line(doc["ladder"])
    assert lines[-1].startswith("ladder (measured, 8 inputs): fake-quant vs float ")
    assert lines[-1].endswith("; GATE PASS")


def test_failing_gate_names_reason_and_cause_in_the_last_line(tmp_path, capsys, monkeypatch):
    import npuready.verify.gate as gate

    @dataclass(frozen=True)
    class Impossible(gate.GateLimits):
        min_agreement: float = 1.5  # no rung can agree more than 100%: the gate must fail

    monkeypatch.setattr(gate, "GateLimits", Impossible)
    assert main(["report", *ARGS, "--out", str(tmp_path)]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    doc = json.loads((tmp_path / "result.json").read_text())["ladder"]
    assert doc["gate"]["passed"] is False and doc["gate"]["cause"]
    assert "; GATE FAIL: top-1 agreement fake-quant vs float " in last and "< limit 1.5000" in last
    assert last.endswith(f"; cause: {doc['gate']['cause']}")


def test_ladder_line_for_a_ladder_that_did_not_run_and_for_no_ladder():
    assert ladder_line(None) is None
    assert ladder_line({"status": "not run", "reason": "op LSTM has no integer kernel"}) == \
        "ladder not run: op LSTM has no integer kernel"
    section = {"status": "ran", "evidence": "measured",
               "gate": {"passed": False, "reasons": ["integer rung did not run: x"],
                        "cause": None},
               "ladder": {"images": 4, "agreement": {"fake_quant_vs_float": 0.5}, "accuracy": {}}}
    assert ladder_line(section) == ("ladder (measured, 4 inputs): fake-quant vs float 0.5000; "
                                    "GATE FAIL: integer rung did not run: x")


def _dense(scores: dict, task: str = "dense") -> dict:
    return {"status": "ran", "evidence": "measured", "gate": {"passed": True, "reasons": [], "cause": None},
            "ladder": {"images": 8, "agreement": {"fake_quant_vs_float": 0.0, "integer_vs_float": 0.0},
                       "accuracy": {}, "task": {"name": task, "source": "declared", "why": "declared"},
                       "task_scores": scores}}


def test_a_task_that_is_not_classification_shows_its_metric_not_top1_of_raw_tensors():
    iou = {"metric": "IoU of the thresholded map", "unit": "", "identical": False, "limit": 0.9}
    line = ladder_line(_dense({"integer_vs_float": {**iou, "value": 0.9012},
                               "fake_quant_vs_float": {**iou, "value": 0.9305}}))
    assert line == ("ladder (measured, 8 inputs): dense, IoU of the thresholded map: fake-quant vs float 0.9305, "
                    "integer vs float 0.9012; GATE PASS")  # not "fake-quant vs float 0.0000" (argmax of a map)
    snr = {"metric": "SNR", "unit": "dB", "limit": 20.0}
    line = ladder_line(_dense({"fake_quant_vs_float": {**snr, "value": 25.44, "identical": False},
                               "integer_vs_float": {**snr, "value": None, "identical": True}}, task="regression"))
    assert "regression, SNR: fake-quant vs float 25.4 dB, integer vs float inf dB; GATE PASS" in line
    classifier = _dense({"integer_vs_float": {**iou, "value": 0.5}}, task="classification")
    assert ladder_line(classifier).startswith("ladder (measured, 8 inputs): fake-quant vs float 0.0000, ")
