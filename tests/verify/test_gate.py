"""The gate's exit codes through the CLI: 0 pass, 1 fail, 2 unusable input."""
import json

from npuready.cli import main
from npuready.verify.gate import GateLimits, gate
from npuready.verify.ladder import LadderResult


def _verify(files, *extra):
    return main(["verify", str(files["float"]), str(files["qdq"]), "--data", str(files["data"]), *extra])


def test_gate_passes_with_loose_limits(ladder_files, capsys, tmp_path):
    out = tmp_path / "g.npz"
    assert _verify(ladder_files, "--images", "8", "--min-agreement", "0", "--max-drop", "1",
                   "--save-integer-graph", str(out)) == 0
    assert "GATE PASS" in capsys.readouterr().out
    from npuready.engine.intgraph import load

    assert set(load(out).roundings().values()) == {"double", "single"}


def test_gate_fails_when_the_quantised_model_is_not_the_float_model(ladder_files, capsys):
    code = main(["verify", str(ladder_files["other"]), str(ladder_files["qdq"]), "--data", str(ladder_files["data"]),
                 "--images", "24", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["gate"]["passed"] is False and report["gate"]["exit_code"] == 1
    assert report["result"]["agreement"]["integer_vs_float"] < 0.99


def test_unusable_input_exits_2(ladder_files, tmp_path, capsys):
    assert main(["verify", str(tmp_path / "missing.onnx"), str(ladder_files["qdq"])]) == 2
    assert _verify(ladder_files, "--images", "0") == 2
    err = capsys.readouterr().err
    assert err.count("npuready verify: error:") == 2


def test_gate_limits_on_synthetic_results():
    r = LadderResult("m", 100, "tflite-ref", "numpy", {"float": 0.9, "fake_quant": 0.89, "integer": 0.885},
                     {"integer_vs_float": 0.98, "fake_quant_vs_float": 0.98, "integer_vs_fake_quant": 1.0})
    assert gate(r, GateLimits(0.97, 0.02)).exit_code == 0
    v = gate(r, GateLimits(0.99, 0.01))
    assert v.exit_code == 1
    assert v.reasons == ("top-1 agreement fake-quant vs float 0.9800 < limit 0.9900",
                         "top-1 agreement integer vs float 0.9800 < limit 0.9900",
                         "accuracy drop float → integer 0.0150 > limit 0.0100")


def test_a_rung_that_did_not_run_fails_the_gate():
    r = LadderResult("m", 10, "tflite-ref", "numpy", {}, {"fake_quant_vs_float": 1.0},
                     refused={"integer": "bias b: stored scale[0] = nan"})
    v = gate(r, GateLimits(0.0, 1.0))
    assert v.reasons == ("integer (the NPU build) rung did not run: bias b: stored scale[0] = nan",)


def test_require_bitexact_gate_uses_litert_reference(ladder_files, capsys):
    import pytest

    pytest.importorskip("ai_edge_litert")
    loose = ("--images", "12", "--min-agreement", "0", "--max-drop", "1", "--require-bitexact", "--format", "json")
    assert _verify(ladder_files, *loose) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["litert_reference"]["tensors_mismatched"] == 0
    assert report["litert_reference"]["tensors_compared"] == 12 * len(report["result"]["tensors"])
    # single rounding everywhere is not what LiteRT's reference convolutions do: the gate blocks it
    assert _verify(ladder_files, *loose, "--rounding", "single") == 1
    report = json.loads(capsys.readouterr().out)
    assert report["litert_reference"]["tensors_mismatched"] > 0


def _task_result(task, scores, refused=None, agreement=None):
    from npuready.verify.tasks.metric import TaskChoice, TaskScore
    from npuready.verify.tasks.registry import get

    metric = get(task)
    ts = {k: TaskScore(metric.metric, v, metric.tolerance, metric.unit) for k, v in scores.items()}
    return LadderResult("m", 8, "tflite-ref", "numpy", {}, agreement or {k: 0.0 for k in scores}, refused=refused or {},
                        task=TaskChoice(task, "declared", "declared; output [1, 1, 8, 8]"), task_scores=ts)


def test_a_task_metric_replaces_top1_agreement_in_the_gate():
    # raw-argmax agreement 0 would fail a classifier; the dense metric passes, so the gate passes
    r = _task_result("dense", {"fake_quant_vs_float": 0.95, "integer_vs_float": 0.93, "integer_vs_fake_quant": 0.97})
    v = gate(r, GateLimits())
    assert v.passed and v.reasons == () and v.cause is None


def test_a_failing_task_metric_names_the_rung_and_its_limit_and_a_cause():
    r = _task_result("dense", {"fake_quant_vs_float": 0.41, "integer_vs_float": 0.40, "integer_vs_fake_quant": 0.99})
    v = gate(r, GateLimits())
    assert v.reasons == ("dense IoU of the thresholded map fake-quant vs float 0.4100 < limit 0.9",
                         "dense IoU of the thresholded map integer vs float 0.4000 < limit 0.9")
    assert v.cause.startswith("model quantisation: the QDQ model as stored already departs from float on the dense "
                              "result (IoU of the thresholded map fake-quant vs float 0.4100 < 0.9); the integer "
                              "engine agrees with fake-quant (IoU of the thresholded map 0.9900)")
    # the same scores judged at a looser --task-limit pass
    assert gate(r, GateLimits(task_limit=0.4)).passed


def test_an_integer_rung_departing_from_fake_quant_is_the_arithmetic():
    r = _task_result("regression", {"fake_quant_vs_float": 30.0, "integer_vs_float": 12.0,
                                    "integer_vs_fake_quant": 12.5})
    v = gate(r, GateLimits())
    assert v.reasons == ("regression SNR (worst output) integer vs float 12.0 dB < limit 20",)
    assert v.cause == ("arithmetic: the integer rung's regression result departs from fake-quant's (the same QDQ "
                       "model in float): SNR (worst output) 12.5 dB < 20; integer ⇄ LiteRT not checked (add --litert)")
    litert = {"tensors_mismatched": 0, "tensors_compared": 9}
    assert gate(r, GateLimits(), litert).cause.startswith("int8 kernels, not the engine: the integer rung's")


def test_a_refused_rung_is_the_builds_doing():
    r = _task_result("regression", {"fake_quant_vs_float": 23.2}, refused={"integer": "op PRelu: constant input"})
    v = gate(r, GateLimits())
    assert v.reasons == ("integer (the NPU build) rung did not run: op PRelu: constant input",)
    assert v.cause == ("build: the integer rung did not run (reason above), so the regression result of the NPU "
                       "build is unknown; fake_quant_vs_float SNR (worst output) 23.2 dB")
