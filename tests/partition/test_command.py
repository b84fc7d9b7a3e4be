import json

import onnx
import pytest

from npuready.cli import main
from npuready.partition.examples import transformer_like, uint8_classifier


@pytest.fixture
def classifier(tmp_path):
    path = tmp_path / "cls.onnx"
    onnx.save(uint8_classifier(), str(path))
    return path


def test_text_report(classifier, capsys):
    assert main(["partition", str(classifier)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # text wraps to the terminal (80 columns here)
    assert "verdict: one NPU body (good): head, body_0, tail" in out
    assert "cpu→npu head → body_0: image_f [1,32,32,3] (NHWC): 3,072 elements × float32 = 12.0 KiB" in out
    assert "to_float (Cast): uint8→float conversion → npuready.runtime.preprocess.to_float" in out


def test_json_report_and_extract(classifier, tmp_path, capsys):
    out_dir = tmp_path / "parts"
    assert main(["partition", str(classifier), "--format", "json", "--extract", str(out_dir), "--edges", "cpu"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "one-body" and data["npu_segments"] == 1
    assert [s["name"] for s in data["segments"]] == ["head", "body_0", "tail"]
    assert sorted(p.name for p in out_dir.iterdir()) == ["body_0.onnx", "head.onnx", "manifest.json", "tail.onnx"]


def test_fragmented_exit_code_is_zero(tmp_path, capsys):
    path = tmp_path / "t.onnx"
    onnx.save(transformer_like(), str(path))
    assert main(["partition", str(path), "-t", "nnapi-mirror", "-o", str(tmp_path / "r.txt")]) == 0
    assert "fragmented: 3 NPU segments, split by LayerNormalization" in (tmp_path / "r.txt").read_text()


def test_bad_inputs_exit_2(classifier, tmp_path, capsys):
    garbage = tmp_path / "g.onnx"
    garbage.write_bytes(b"\x00not a model")
    assert main(["partition", str(garbage)]) == 2
    assert main(["partition", str(classifier), "--target", "nope"]) == 2
    assert main(["partition", str(tmp_path / "missing.onnx")]) == 2
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["partition", str(classifier), "--extract", str(blocker)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("npuready partition: error: ") for line in err)
    assert "unknown target 'nope'" in err[1]


def test_help_names_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["partition", "--help"])
    assert "Exit codes: 0" in capsys.readouterr().out


def test_graph_level_lint_error_is_reported_and_exemptable(tmp_path, capsys):
    from npuready.lint.examples import conv_relu

    path = tmp_path / "batched.onnx"
    onnx.save(conv_relu(shape=(2, 3, 16, 16)), str(path))
    assert main(["partition", str(path), "-f", "json"]) == 0
    errors = json.loads(capsys.readouterr().out)["graph_lint_errors"]
    assert [e.split(":")[0] for e in errors] == ["R001b"]
    assert main(["partition", str(path), "-f", "json", "--allow-batched-input"]) == 0
    assert json.loads(capsys.readouterr().out)["graph_lint_errors"] == []
