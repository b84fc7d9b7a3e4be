"""`npuready lint` end to end: exit codes 0/1/2, formats, --output, bad input as one stderr line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

from npuready.cli import main
from npuready.lint.registry import RULES

sys.path.insert(0, str(Path(__file__).parent / "graph"))
from bad_models import BAD  # noqa: E402


def _flat(text: str) -> str:
    """Text output wraps to the terminal width: compare with whitespace collapsed."""
    return " ".join(text.split())


def _save(tmp_path: Path, rule_id: str, kind: str) -> Path:
    rule = RULES[rule_id]
    path = tmp_path / f"{rule_id}_{kind}.onnx"
    onnx.save(rule.bad_example() if kind == "bad" else rule.good_example(), path)
    return path


def test_clean_model_exits_0(tmp_path, capsys):
    assert main(["lint", str(_save(tmp_path, "R003", "good"))]) == 0
    assert " ok: 0 error(s), 0 warning(s)" in _flat(capsys.readouterr().out)


def test_error_finding_exits_1(tmp_path, capsys):
    assert main(["lint", str(_save(tmp_path, "R003", "bad"))]) == 1
    out = capsys.readouterr().out
    assert "BLOCKED: 1 error(s)" in _flat(out) and "R003" in out


def test_warning_only_exits_0(tmp_path, capsys):
    assert main(["lint", str(_save(tmp_path, "R004", "bad")), "--target", "edge-10"]) == 0
    assert "WARN (recorded only)" in _flat(capsys.readouterr().out)


def test_any_blocked_model_among_several_exits_1(tmp_path, capsys):
    assert main(["lint", str(_save(tmp_path, "R001a", "good")), str(_save(tmp_path, "R005", "bad"))]) == 1
    assert "2 model(s): 1 blocked, 1 ok" in _flat(capsys.readouterr().out)


def test_allow_batched_input_flag(tmp_path, capsys):
    path = _save(tmp_path, "R001b", "bad")
    assert main(["lint", str(path)]) == 1
    assert main(["lint", str(path), "--allow-batched-input"]) == 0


def test_json_output_file(tmp_path, capsys):
    out = tmp_path / "report.json"
    assert main(["lint", str(_save(tmp_path, "R007", "bad")), "-f", "json", "-o", str(out)]) == 1
    assert capsys.readouterr().out == ""
    data = json.loads(out.read_text())
    assert data["blocked"] is True and data["summary"] == {"errors": 1, "warnings": 0, "infos": 0}
    assert [f["rule"] for f in data["findings"]] == ["R007"]


@pytest.mark.parametrize("fmt", ["sarif", "junit"])
def test_machine_formats_on_stdout(tmp_path, capsys, fmt):
    assert main(["lint", str(_save(tmp_path, "R002", "bad")), "--format", fmt]) == 1
    out = capsys.readouterr().out
    assert ('"version": "2.1.0"' in _flat(out)) if fmt == "sarif" else out.startswith("<?xml")


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_with_one_line(case, tmp_path, capsys):
    path = BAD[case](tmp_path)
    assert main(["lint", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"npuready lint: error: {path}: ")


def test_unknown_target_exits_2(tmp_path, capsys):
    assert main(["lint", str(_save(tmp_path, "R003", "good")), "--target", "no-such-npu"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("case", ["truncated", "escaping_external", "absurd_shape"])
def test_bad_input_in_a_real_process(case, tmp_path):
    path = BAD[case](tmp_path)
    proc = subprocess.run([sys.executable, "-m", "npuready.cli", "lint", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and str(path) in proc.stderr


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["lint", "--format", "yaml", "x.onnx"])
    assert info.value.code == 2


def test_unwritable_output_exits_2(tmp_path, capsys):
    assert main(["lint", str(_save(tmp_path, "R003", "good")), "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write the report" in err
