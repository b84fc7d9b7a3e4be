"""`npuready cost` through the CLI: JSON contract, text output, bad input -> exit 2."""
import json

import onnx

from npuready.cli import main


def test_json_contract(tmp_path, conv_relu, capsys):
    path = tmp_path / "m.onnx"
    onnx.save(conv_relu, path)
    assert main(["cost", str(path), "--target", "edge-10", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["evidence"] == "simulated" and d["target"] == "edge-10"
    assert d["total"]["cycles"] == sum(l["cycles"] for l in d["layers"])
    assert d["total"]["latency_s"] > 0
    assert [l["node"] for l in d["layers"]] == ["conv", "relu"]
    assert {"node", "op_type", "cycles", "bound"} <= set(d["layers"][0])


def test_text_output_says_simulated(tmp_path, conv_relu, capsys):
    path = tmp_path / "m.onnx"
    onnx.save(conv_relu, path)
    assert main(["cost", str(path), "-t", "tiny-1"]) == 0
    out = capsys.readouterr().out
    assert "SIMULATED" in out and "total (simulated):" in out and "conv" in out


def test_bad_input_exit_2(tmp_path, capsys):
    assert main(["cost", str(tmp_path / "missing.onnx")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
    bad = tmp_path / "m.onnx"
    bad.write_bytes(b"not a model")
    assert main(["cost", str(bad), "-t", "edge-10"]) == 2
    assert main(["cost", str(bad), "-t", "no-such-target"]) == 2


def test_targets_verb_one_name_per_line(capsys):
    from npuready.targets import target_names

    assert main(["targets"]) == 0
    assert capsys.readouterr().out.splitlines() == target_names()
