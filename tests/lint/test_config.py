"""Finding and validating the lint configuration: discovery like ruff, every bad file → exit 2, one line."""
from __future__ import annotations

import datetime as dt
import json

import pytest
from lint_config_models import activations, save, write

from npuready.cli import main
from npuready.errors import InputError
from npuready.lint.config import LintConfig, find_config, load_config, resolve_config
from npuready.lint.registry import RULES
from npuready.lint.rule import Severity

PYPROJECT = """\
[project]
name = "demo"

[tool.npuready.lint]
target = "edge-10"
ignore = ["R004"]
fail-on = "warn"

[tool.npuready.lint.severity]
R007 = "warn"

[[tool.npuready.lint.waive]]
rule = "R005"
node = "act1"
model = "models/*.onnx"
reason = "runs on the CPU by design"
expires = 2027-06-30
"""


def _flat(text: str) -> str:
    """Text output wraps to the terminal width: compare with whitespace collapsed."""
    return " ".join(text.split())


def test_pyproject_is_parsed_into_a_config(tmp_path):
    cfg = load_config(write(tmp_path / "pyproject.toml", PYPROJECT))
    assert (cfg.target, cfg.ignore, cfg.select, cfg.fail_on) == ("edge-10", ("R004",), None, "warn")
    assert cfg.severity == {"R007": Severity.WARN}
    (w,) = cfg.waivers
    assert (w.rule, w.node, w.model, w.reason, w.expires) == ("R005", "act1", "models/*.onnx",
                                                              "runs on the CPU by design", dt.date(2027, 6, 30))
    assert w.source == "pyproject.toml: tool.npuready.lint.waive[0]"
    assert cfg.root == tmp_path.resolve()


def test_npuready_toml_uses_a_bare_lint_table(tmp_path):
    cfg = load_config(write(tmp_path / "npuready.toml", '[lint]\nselect = ["R00"]\nbaseline = "ci/base.json"\n'))
    assert cfg.select == ("R00",)
    assert cfg.baseline == tmp_path.resolve() / "ci" / "base.json"


def test_discovery_walks_up_from_the_model_and_skips_foreign_pyprojects(tmp_path):
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "sub" / "pyproject.toml", "[tool.ruff]\nline-length = 100\n")  # no [tool.npuready]: skipped
    model = save(activations(1), tmp_path / "sub" / "deep" / "m.onnx")
    assert find_config(model.parent) == tmp_path.resolve() / "pyproject.toml"
    write(tmp_path / "sub" / "npuready.toml", "[lint]\n")
    assert find_config(model.parent) == tmp_path.resolve() / "sub" / "npuready.toml"
    write(tmp_path / "sub" / "deep" / "pyproject.toml", "[tool.npuready.lint]\n")
    write(tmp_path / "sub" / "deep" / "npuready.toml", "[lint]\n")  # same folder: npuready.toml wins
    assert find_config(model.parent) == tmp_path.resolve() / "sub" / "deep" / "npuready.toml"


def test_model_without_config_falls_back_to_the_working_folder(tmp_path, monkeypatch):
    work = tmp_path / "work"
    write(work / "npuready.toml", "[lint]\nignore = [\"R005\"]\n")
    model = save(activations(1), tmp_path / "elsewhere" / "m.onnx")
    monkeypatch.chdir(work)
    assert resolve_config(model).path == work.resolve() / "npuready.toml"
    assert resolve_config(model, isolated=True) == LintConfig(root=work.resolve())


def test_cli_applies_discovered_config_and_isolated_ignores_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    model = save(activations(2), tmp_path / "models" / "m.onnx")
    write(tmp_path / "npuready.toml", '[lint]\nignore = ["R005"]\n')
    assert main(["lint", str(model)]) == 0
    out = capsys.readouterr().out
    assert ("ok: 0 error(s), 0 warning(s)" in _flat(out)
            and f"config: {tmp_path.resolve() / 'npuready.toml'}" in _flat(out))
    assert main(["lint", str(model), "--isolated"]) == 1
    other = write(tmp_path / "other.toml", "[lint]\n")
    assert main(["lint", str(model), "--config", str(other)]) == 1  # a named file; name decides the layout
    write(tmp_path / "cfg" / "npuready.toml", '[lint]\nselect = ["R001"]\n')
    assert main(["lint", str(model), "--config", str(tmp_path / "cfg" / "npuready.toml")]) == 0


def test_command_line_select_and_ignore_replace_the_config(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    model = save(activations(2), tmp_path / "m.onnx")
    write(tmp_path / "npuready.toml", '[lint]\nignore = ["R005"]\n')
    out = tmp_path / "r.json"
    assert main(["lint", str(model), "--ignore", "R004", "-f", "json", "-o", str(out)]) == 1
    assert "R005" in json.loads(out.read_text())["rules_run"]
    assert main(["lint", str(model), "--select", "R001, R002", "-f", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["rules_run"] == ["R001a", "R001b", "R002"]
    assert main(["lint", str(model), "--select", "R00", "--ignore", "R001,R005", "-f", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["rules_run"] == [r for r in RULES if not r.startswith(("R001", "R005"))]


def test_severity_override_and_fail_on(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    model = save(activations(1), tmp_path / "m.onnx")
    write(tmp_path / "npuready.toml", '[lint]\n[lint.severity]\nR005 = "WARN"\n')
    assert main(["lint", str(model)]) == 0
    assert "WARN (recorded only) R005" in _flat(capsys.readouterr().out)
    assert main(["lint", str(model), "--fail-on", "warn", "-f", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["blocked"], data["failed"], data["fail_on"]) == (False, True, "warn")
    assert main(["lint", str(model), str(model), "--fail-on", "warn"]) == 1
    out = capsys.readouterr().out
    assert ("FAILED (fail-on warn): 0 error(s), 1 warning(s)" in _flat(out)
            and "2 model(s): 0 blocked, 2 failed, 0 ok" in _flat(out))
    write(tmp_path / "npuready.toml", '[lint]\nfail-on = "never"\n')
    assert main(["lint", str(model)]) == 0
    assert main(["lint", str(model), "--fail-on", "error"]) == 1


def test_config_target_is_used_unless_the_command_line_names_one(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    model = save(activations(1), tmp_path / "m.onnx")
    write(tmp_path / "npuready.toml", '[lint]\ntarget = "ethos-u55-128"\n')
    main(["lint", str(model)])
    assert "[target ethos-u55-128]" in _flat(capsys.readouterr().out)
    main(["lint", str(model), "--target", "edge-10"])
    assert "[target edge-10]" in _flat(capsys.readouterr().out)


BAD = {
    "toml syntax": ("[lint\n", "not valid TOML"),
    "unknown top key": ("[lint]\n[format]\n", "[(top level)]: unknown key 'format'; known keys: lint"),
    "unknown lint key": ("[lint]\nslect = []\n", "[lint]: unknown key 'slect'"),
    "lint not a table": ("lint = 3\n", "[lint]: expected a table"),
    "unknown rule": ('[lint]\nignore = ["R099"]\n', "[lint.ignore]: 'R099' names no rule"),
    "empty selector": ('[lint]\nselect = [""]\n', "[lint.select]: '' names no rule"),
    "select not a list": ('[lint]\nselect = "R001"\n', "[lint.select]: expected a list of rule ids, got str"),
    "bad target": ('[lint]\ntarget = "no-such-npu"\n', "[lint.target]: "),
    "bad fail-on": ('[lint]\nfail-on = "sometimes"\n', "[lint.fail-on]: 'sometimes' is not one of error, warn, never"),
    "severity unknown rule": ('[lint.severity]\nR099 = "WARN"\n', "[lint.severity]: unknown rule id 'R099'"),
    "severity prefix": ('[lint.severity]\nR00 = "WARN"\n', "[lint.severity]: unknown rule id 'R00'"),
    "severity value": ('[lint.severity]\nR007 = "FATAL"\n', "[lint.severity.R007]: severity 'FATAL' is not one of"),
    "waive not an array": ('[lint.waive]\nrule = "R005"\n', "[lint.waive]: expected an array of tables"),
    "waiver without reason": ('[[lint.waive]]\nrule = "R005"\nnode = "a"\n', "[lint.waive[0]]: missing 'reason'"),
    "waiver without node": ('[[lint.waive]]\nrule = "R005"\nreason = "x"\n', "[lint.waive[0]]: missing 'node'"),
    "waiver empty reason": ('[[lint.waive]]\nrule = "R005"\nnode = "a"\nreason = "  "\n',
                            "[lint.waive[0].reason]: empty"),
    "waiver unknown rule": ('[[lint.waive]]\nrule = "X1"\nnode = "a"\nreason = "r"\n',
                            "[lint.waive[0].rule]: 'X1' names no rule"),
    "waiver unknown key": ('[[lint.waive]]\nrule = "R005"\nnode = "a"\nreason = "r"\nuntil = 2027-01-01\n',
                           "[lint.waive[0]]: unknown key 'until'"),
    "waiver bad date": ('[[lint.waive]]\nrule = "R005"\nnode = "a"\nreason = "r"\nexpires = "soon"\n',
                        "[lint.waive[0].expires]: 'soon' is not a date"),
    "waiver node type": ('[[lint.waive]]\nrule = "R005"\nnode = 3\nreason = "r"\n',
                         "[lint.waive[0].node]: expected a string"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_every_bad_config_exits_2_with_one_line_naming_file_and_key(case, tmp_path, monkeypatch, capsys):
    text, expected = BAD[case]
    monkeypatch.chdir(tmp_path)
    model = save(activations(1), tmp_path / "m.onnx")
    cfg = write(tmp_path / "npuready.toml", text)
    assert main(["lint", str(model)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"npuready lint: error: {cfg.resolve()}: ")
    assert expected in line


def test_bad_pyproject_names_the_tool_table(tmp_path, capsys):
    cfg = write(tmp_path / "pyproject.toml", "[tool.npuready.lint]\nignore = [\"R9\"]\n")
    with pytest.raises(InputError, match=r"pyproject.toml: \[tool.npuready.lint.ignore\]: 'R9' names no rule"):
        load_config(cfg)
    plain = write(tmp_path / "other" / "pyproject.toml", "[project]\nname = 'x'\n")
    with pytest.raises(InputError, match=r"no \[tool.npuready\] table"):
        load_config(plain)


@pytest.mark.parametrize("argv, expected", [
    (["--config", "missing.toml"], "missing.toml: configuration file not found"),
    (["--select", "R005,Q1"], "--select R005,Q1: 'Q1' names no rule"),
    (["--ignore", "R0099"], "--ignore R0099: 'R0099' names no rule"),
    (["--baseline", "nope.json"], "nope.json: baseline file not found"),
    (["--sarif-root", "no/such/dir"], "--sarif-root no/such/dir: not a folder"),
])
def test_bad_options_exit_2_with_one_line(argv, expected, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    model = save(activations(1), tmp_path / "m.onnx")
    assert main(["lint", str(model), *argv]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("npuready lint: error: ") and expected in line


def test_bad_baseline_file_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    model = save(activations(1), tmp_path / "m.onnx")
    write(tmp_path / "b.json", '{"findings": []}')
    assert main(["lint", str(model), "--baseline", "b.json"]) == 2
    assert "b.json: not an npuready baseline" in capsys.readouterr().err
