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
