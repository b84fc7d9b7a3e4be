"""`npuready intake` on a user's ONNX (not in the zoo): text and JSON reports, exit codes."""
from __future__ import annotations

import json

import onnx
import pytest

from intake_models import conv_net
from npuready.cli import main


@pytest.fixture()
def user_model(tmp_path):
    path = tmp_path / "my_model.onnx"
    onnx.save(conv_net("Sigmoid", channel_max=[0.05, 0.1, 0.2, 1.0]), path)
    return path


def test_text_report_diagnoses_and_prescribes(user_model, capsys):
    assert main(["intake", str(user_model), "--target", "edge-10-nolut"]) == 0
    out = capsys.readouterr().out
    assert " ".join(out.split()).startswith(f"Intake report: {user_model} on edge-10-nolut ")
    for part in ("DIAGNOSIS", "lint: 1 ERROR", "R005 act1 (Sigmoid)", "partition: fragmented: 2 NPU segments",
                 "hot spots (top layers by simulated cycles):", "[high] wide-weight-range conv1",
                 "PRESCRIPTION (in order)", "1. Swap Sigmoid → ReLU6 (Clip) [auto with --apply]",
                 "Quantise weights per output channel", "Basis: lint and partition rest on the ONNX graph"):
        assert part in " ".join(out.split())  # text wraps to the terminal width (80 columns: not a terminal)
    assert "APPLIED" not in out


def test_json_report(user_model, capsys, tmp_path):
    out_file = tmp_path / "r.json"
    assert main(["intake", str(user_model), "-t", "edge-10", "-f", "json", "-o", str(out_file)]) == 0
    doc = json.loads(out_file.read_text())
    assert doc["zoo_name"] is None and doc["applied"] is None and doc["target"] == "edge-10"
    assert [a["order"] for a in doc["prescription"]] == list(range(1, len(doc["prescription"]) + 1))
    assert doc["diagnosis"]["lint"]["summary"]["errors"] == 0
    assert {r["kind"] for r in doc["diagnosis"]["risks"]} == {"wide-weight-range", "table-activation"}


@pytest.mark.parametrize("args, message", [
    (["intake", "{model}", "--apply"], "--apply needs a zoo model"),
    (["intake", "nope.onnx"], "nope.onnx: no such ONNX file"),
    (["intake", "no_such_zoo_model"], "not a file and not in the zoo"),
    (["intake", "{model}", "--target", "nope"], "nope"),
])
def test_unusable_input_exit_2(user_model, capsys, args, message):
    assert main([a.replace("{model}", str(user_model)) for a in args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
