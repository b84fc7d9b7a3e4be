"""Names are data: node and tensor names with terminal escapes and control characters stay inert in every
renderer (text has no raw control characters, JUnit parses, SARIF and JSON are valid JSON)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from npuready.cli import main

HOSTILE = "\x1b[31mred\x1b[0m\x07bell\rcr\x00nul\u202eltr"


def _model(path):
    x = helper.make_tensor_value_info("in" + HOSTILE, TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("out" + HOSTILE, TensorProto.FLOAT, [1, 3, 8, 8])
    nodes = [helper.make_node("Softsign", ["in" + HOSTILE], ["mid" + HOSTILE], name="act" + HOSTILE),
             helper.make_node("Relu", ["mid" + HOSTILE], ["out" + HOSTILE], name="relu" + HOSTILE)]
    m = helper.make_model(helper.make_graph(nodes, "g" + HOSTILE, [x], [y]),
                          opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)
    return path


def _raw_controls(text: str) -> list[str]:
    return sorted({c for c in text if not c.isprintable() and c not in "\n"})


@pytest.mark.parametrize("verb", ["lint", "partition", "cost", "intake"])
def test_text_output_has_no_raw_control_characters(verb, tmp_path, capsys):
    path = _model(tmp_path / "m.onnx")
    main([verb, str(path)])
    out, err = capsys.readouterr()
    assert _raw_controls(out) == [] and _raw_controls(err) == []
    if verb == "lint":
        assert "\\x1b[31mred" in out  # shown, escaped


def test_junit_parses_and_sarif_json_is_valid(tmp_path, capsys):
    path = _model(tmp_path / "m.onnx")
    main(["lint", str(path), "--format", "junit"])
    ET.fromstring(capsys.readouterr().out.encode())
    main(["lint", str(path), "--format", "json"])
    json.loads(capsys.readouterr().out)
    main(["lint", str(path), "--format", "sarif"])
    sarif = json.loads(capsys.readouterr().out)
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parent / "lint" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(sarif, schema)
    assert any("\x1b" in r["message"]["text"] for r in sarif["runs"][0]["results"])


def test_error_lines_escape_names(tmp_path, capsys):
    path = _model(tmp_path / "m.onnx")
    assert main(["cost", str(path), "--input-shape", "nope\x1b[2J=1,3,8,8"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and _raw_controls(err) == []
