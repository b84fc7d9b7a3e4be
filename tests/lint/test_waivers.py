"""A waiver hides exactly the finding it names (rule, node glob, model glob), keeps it visible, and expires."""
from __future__ import annotations

import datetime as dt
import json

from lint_config_models import activations, save, write

from npuready.cli import main
from npuready.lint import lint
from npuready.lint.config import load_config
from npuready.lint.render import render

WAIVER = """\
[[lint.waive]]
rule = "R005"
node = "{node}"
model = "{model}"
reason = "Softsign stays on the CPU by design"
{expires}
"""


def _flat(text: str) -> str:
    """Text output wraps to the terminal width: compare with whitespace collapsed."""
    return " ".join(text.split())


def _config(tmp_path, node="act1", model="models/*.onnx", expires=""):
    return load_config(write(tmp_path / "npuready.toml", WAIVER.format(node=node, model=model, expires=expires)))


def _states(report):
    return [(f.node, f.suppression.tag if f.suppression else None) for f in report.findings]


def test_a_waiver_hides_exactly_the_named_node(tmp_path):
    model = save(activations(3), tmp_path / "models" / "m.onnx")
    report = lint(model, target="edge-10", config=_config(tmp_path))
    assert _states(report) == [("act0", None), ("act1", "waived: Softsign stays on the CPU by design"), ("act2", None)]
    assert [f.node for f in report.active] == ["act0", "act2"]
    assert report.blocked and len(report.errors) == 3  # still an ERROR for the partition planner


def test_a_glob_waives_every_matching_node_and_the_run_passes(tmp_path):
    model = save(activations(3), tmp_path / "models" / "m.onnx")
    report = lint(model, target="edge-10", config=_config(tmp_path, node="act*"))
    assert [f.suppressed for f in report.findings] == [True, True, True]
    assert not report.blocked and report.exit_code == 0
    data = report.to_dict()
    assert (data["summary"], data["suppressed"]) == ({"errors": 0, "warnings": 0, "infos": 0},
                                                     {"waived": 3, "baselined": 0})


def test_model_glob_is_relative_to_the_config_folder(tmp_path):
    other = save(activations(3), tmp_path / "elsewhere" / "m.onnx")
    report = lint(other, target="edge-10", config=_config(tmp_path, node="act*"))
    assert report.model_key == "elsewhere/m.onnx"
    assert not any(f.suppressed for f in report.findings)


def test_an_expired_waiver_stops_waiving_and_says_so(tmp_path):
    model = save(activations(2), tmp_path / "models" / "m.onnx")
    config = _config(tmp_path, node="act*", expires="expires = 2026-06-30")
    live = lint(model, target="edge-10", config=config, today=dt.date(2026, 6, 30))
    assert not live.blocked  # the expiry day itself still waives
    gone = lint(model, target="edge-10", config=config, today=dt.date(2026, 7, 1))
    assert gone.blocked and [f.suppressed for f in gone.findings] == [False, False]
    assert _states(gone)[0] == ("act0", "waiver expired 2026-06-30: Softsign stays on the CPU by design")
    text = render([gone], "text")
    assert "BLOCKED: 2 error(s), 0 warning(s)" in text
    assert ("- act0 (Softsign): activation Softsign is not in the allowlist of target edge-10 [waiver expired "
            "2026-06-30: Softsign stays on the CPU by design]") in " ".join(text.split())
    finding = json.loads(render([gone], "json"))["findings"][0]
    assert finding["suppression"] == {"kind": "waiver", "reason": "Softsign stays on the CPU by design",
                                      "active": False, "expires": "2026-06-30",
                                      "source": "npuready.toml: lint.waive[0]"}


def test_waived_findings_stay_visible_in_text_and_json_via_the_cli(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    model = save(activations(2), tmp_path / "models" / "m.onnx")
    _config(tmp_path, node="act1")
    assert main(["lint", "models/m.onnx", "--target", "edge-10"]) == 1
    out = capsys.readouterr().out
    assert "BLOCKED: 1 error(s), 0 warning(s), 1 waived" in _flat(out)
    flat = " ".join(out.split())  # the text renderer wraps long lines
    assert ("- act1 (Softsign): activation Softsign is not in the allowlist of target edge-10 [waived: Softsign "
            "stays on the CPU by design]") in flat
    _config(tmp_path, node="act?")
    assert main(["lint", str(model), "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["suppression"]["kind"] for f in data["findings"]] == ["waiver", "waiver"]
    assert data["blocked"] is False and data["model_key"] == "models/m.onnx"
