"""`npuready sensitivity` and `quantize --keep-float`: exact output on a tiny model; bad input is one line, exit 2."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

from npuready.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sensitivity"))
from sens_tiny import LAYERS, tiny_inputs, tiny_model  # noqa: E402


@pytest.fixture()
def files(tmp_path):
    model = tmp_path / "tiny.onnx"
    onnx.save(tiny_model(), model)
    calib = tmp_path / "calib.npz"
    np.savez(calib, x=tiny_inputs(40))
    return model, calib


def test_sensitivity_json_lists_every_layer_with_its_cost(files, capsys):
    model, calib = files
    assert main(["sensitivity", str(model), "--calib", str(calib), "--images", "16", "--holdout", "24",
                 "-t", "edge-10", "-t", "tiny-1", "--format", "json", "--top", "0"]) == 0
    out = capsys.readouterr()
    doc = json.loads(out.out)["sensitivity"]
    assert sorted(r["name"] for r in doc["rows"]) == sorted(LAYERS)
    assert doc["images"] == 24 and doc["task"] == "classification"
    assert all([c["target"] for c in r["costs"]] == ["edge-10", "tiny-1"] for r in doc["rows"])
    assert doc["evidence"] == {"costs": "simulated", "metrics": "measured", "sqnr_db": "measured"}
    assert out.err.strip().endswith("3 layers scored on 24 held-out images of " + str(calib))


def test_keep_float_by_name_writes_the_mixed_model_and_its_record(files, tmp_path, capsys):
    from npuready.quant.keep_float import kept_float

    model, calib = files
    out = tmp_path / "q.onnx"
    assert main(["quantize", str(model), "-o", str(out), "--calib", str(calib), "--images", "16",
                 "--holdout", "24", "--keep-float", "c2", "--target", "edge-10"]) == 0
    assert kept_float(onnx.load(out))[0] == "c2"
    rec = json.loads((tmp_path / "q.keep-float.json").read_text())["keep_float"]
    assert [k["name"] for k in rec["kept"]] == ["c2"] and rec["kept"][0]["reason"] == "manual: --keep-float"
    assert rec["stopped_by"] == "manual" and rec["target"] == "edge-10" and rec["extra_cycles"] > 0
    assert "1 layers kept float" in capsys.readouterr().err


def test_keep_float_auto_reaches_a_metric_int8_already_meets_with_no_layer(files, tmp_path):
    model, calib = files
    out = tmp_path / "q.onnx"
    assert main(["quantize", str(model), "-o", str(out), "--calib", str(calib), "--images", "16",
                 "--holdout", "24", "--keep-float", "auto", "--min-metric", "0"]) == 0
    rec = json.loads((tmp_path / "q.keep-float.json").read_text())
    assert rec["keep_float"]["kept"] == [] and rec["keep_float"]["stopped_by"] == "reached"
    assert len(rec["sensitivity"]["rows"]) == 3


@pytest.mark.parametrize("argv, message", [
    (["sensitivity", "{m}", "--calib", "{c}", "--top", "-1"], "--top -1: must be 0 (all) or more"),
    (["sensitivity", "{m}", "--calib", "{c}", "-t", "no-such-target"], "no-such-target"),
    (["sensitivity", "{m}", "--calib", "{c}", "--images", "40"], "all 40 of its inputs are calibration images"),
    (["quantize", "{m}", "-o", "{o}", "--calib", "{c}", "--images", "16", "--keep-float", "nosuch"],
     "--keep-float nosuch: no quantised layer of that name"),
    (["quantize", "{m}", "-o", "{o}", "--calib", "{c}", "--keep-float", "auto"], "needs --min-metric X"),
    (["quantize", "{m}", "-o", "{o}", "--calib", "{c}", "--min-metric", "0.9"], "only with --keep-float auto"),
])
def test_bad_input_is_one_line_and_exit_2(files, tmp_path, capsys, argv, message):
    model, calib = files
    out = tmp_path / "q.onnx"
    args = [a.format(m=model, c=calib, o=out) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not out.exists()


def test_verify_runs_a_mixed_build_end_to_end_and_names_its_float_nodes(files, tmp_path, capsys):
    model, calib = files
    out = tmp_path / "q.onnx"
    assert main(["quantize", str(model), "-o", str(out), "--calib", str(calib), "--images", "16",
                 "--holdout", "24", "--keep-float", "c1,c2"]) == 0
    capsys.readouterr()
    code = main(["verify", str(model), str(out), "--data", str(calib), "--images", "8", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)["result"]
    assert code in (0, 1) and "integer" not in doc["refused"]
    assert doc["kept_float"][:1] == ["c1"] and "c2" in doc["kept_float"]
    # c1 → c2 → pooling → flatten is one island, ending at the tensor the Gemm reads
    assert [t["op"] for t in doc["tensors"] if t["kind"] == "Float"] == ["flat"]
