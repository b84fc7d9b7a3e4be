"""The GitHub Action's run step and the pre-commit hook, run locally on a temporary repository (no network)."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from lint_config_models import activations, save, write

from npuready.lint import examples as ex

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "tests" / "lint" / "data" / "sarif-schema-2.1.0.json").read_text())
ACTION = yaml.safe_load((REPO / "action.yml").read_text())
HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())


def _flat(text: str) -> str:
    """Text output wraps to the terminal width: compare with whitespace collapsed."""
    return " ".join(text.split())


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "NPUREADY_"))}
    env["PYTHONPATH"] = str(REPO / "generator")
    env.update(extra)
    return env


@pytest.fixture
def checkout(tmp_path):
    """A user's repository: one clean model, one with two R005 ERRORs on edge-10, a configuration."""
    root = tmp_path / "user-repo"
    save(ex.conv_relu(), root / "models" / "clean.onnx")
    save(activations(2), root / "models" / "sub" / "bad.onnx")
    write(root / "pyproject.toml", '[project]\nname = "user"\n\n[tool.npuready.lint]\ntarget = "edge-10"\n')
    return root


def _action(checkout: Path, *argv: str, **inputs: str) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    output = checkout.parent / "github_output"
    output.write_text("")
    env = _env(GITHUB_WORKSPACE=str(checkout), GITHUB_OUTPUT=str(output),
               GITHUB_STEP_SUMMARY=str(checkout.parent / "summary.md"), GITHUB_SERVER_URL="https://github.example",
               NPUREADY_ACTION_REPOSITORY="owner/npuready", NPUREADY_ACTION_REF="v1", **inputs)
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "lint_action.py"), *argv], cwd=checkout, env=env,
                          capture_output=True, text=True)
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    return proc, outputs


def test_action_step_lints_the_glob_writes_relative_sarif_and_defers_the_exit(checkout):
    proc, outputs = _action(checkout, "--defer-exit", NPUREADY_MODELS="models/**/*.onnx",
                            NPUREADY_SARIF="out/lint.sarif")
    assert proc.returncode == 0, proc.stderr
    assert outputs == {"exit-code": "1", "sarif": "out/lint.sarif"}
    doc = json.loads((checkout / "out" / "lint.sarif").read_text())
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert sorted(validator.iter_errors(doc), key=str) == []
    (run,) = doc["runs"]
    assert run["automationDetails"]["id"] == "npuready/lint/edge-10/"
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == checkout.resolve().as_uri() + "/"
    assert [a["location"]["uri"] for a in run["artifacts"]] == ["models/clean.onnx", "models/sub/bad.onnx"]
    assert [(r["ruleId"], r["locations"][0]["logicalLocations"][0]["name"]) for r in run["results"]] == [
        ("R005", "act0"), ("R005", "act1")]
    assert run["tool"]["driver"]["rules"][0]["helpUri"] == "https://github.example/owner/npuready/blob/v1/docs/rules/R001a.md"
    summary = (checkout.parent / "summary.md").read_text()
    assert "| R005 | error | edge-10 | models/sub/bad.onnx | act1 |" in summary
    assert proc.stdout.splitlines()[0] == "2 active finding(s), 0 waived or baselined"


@pytest.mark.parametrize("fail_on, code", [("never", "0"), ("error", "1")])
def test_action_fail_on_and_exit_code_without_defer(checkout, fail_on, code):
    proc, outputs = _action(checkout, NPUREADY_MODELS="**/*.onnx", NPUREADY_FAIL_ON=fail_on)
    assert outputs["exit-code"] == code and proc.returncode == int(code)
    assert (checkout / "npuready.sarif").is_file()


def test_action_with_a_waiver_passes_and_marks_the_suppression(checkout):
    write(checkout / "pyproject.toml", '[tool.npuready.lint]\ntarget = "edge-10"\n[[tool.npuready.lint.waive]]\n'
                                       'rule = "R005"\nnode = "act*"\nreason = "post-processing on the CPU"\n')
    proc, outputs = _action(checkout, "--defer-exit", NPUREADY_MODELS="models/**/*.onnx")
    assert outputs["exit-code"] == "0"
    assert "0 active finding(s), 2 waived or baselined" in proc.stdout
    results = json.loads((checkout / "npuready.sarif").read_text())["runs"][0]["results"]
    assert [r["suppressions"][0]["justification"] for r in results] == ["post-processing on the CPU"] * 2


def test_action_with_no_matching_model_fails_with_one_line(checkout):
    proc, outputs = _action(checkout, "--defer-exit", NPUREADY_MODELS="nothing/*.onnx")
    assert outputs["exit-code"] == "2" and proc.returncode == 0
    assert proc.stderr.splitlines() == ["npuready action: error: no file matches models 'nothing/*.onnx'; "
                                        "set the 'models' input to a glob of ONNX files"]


def test_action_yml_declares_the_inputs_and_runs_the_script():
    assert {"models", "target", "profile", "fail-on", "sarif"} <= set(ACTION["inputs"])
    assert ACTION["runs"]["using"] == "composite"
    steps = ACTION["runs"]["steps"]
    lint_step = next(s for s in steps if s.get("id") == "lint")
    assert "tools/lint_action.py" in lint_step["run"] and "--defer-exit" in lint_step["run"]
    script = (REPO / "tools" / "lint_action.py").read_text()
    read = set(re.findall(r"NPUREADY_[A-Z_]+", script))
    assert set(lint_step["env"]) == read  # every variable the script reads is mapped, and nothing else
    assert any('pip install' in s.get("run", "") and "$GITHUB_ACTION_PATH" in s["run"] for s in steps)
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif }}"
    assert steps[-1]["run"] == 'exit "${{ steps.lint.outputs.exit-code }}"'


def _hook_command() -> list[str]:
    (hook,) = HOOKS
    argv = shlex.split(hook["entry"])
    script = Path(sys.executable).parent / argv[0]
    return ([str(script)] if script.is_file() else [sys.executable, "-m", "npuready.cli"]) + argv[1:]


def test_pre_commit_hook_selects_onnx_files_and_runs_on_them(checkout):
    (hook,) = HOOKS
    assert (hook["id"], hook["language"], hook["files"]) == ("npuready-lint", "python", r"\.onnx$")
    staged = ["models/clean.onnx", "models/sub/bad.onnx", "README.md", "models/clean.onnx.json", "export.py"]
    passed = [f for f in staged if re.search(hook["files"], f)]  # what pre-commit hands to the entry
    assert passed == ["models/clean.onnx", "models/sub/bad.onnx"]
    proc = subprocess.run(_hook_command() + passed, cwd=checkout, env=_env(), capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert "models/sub/bad.onnx  [target edge-10]  BLOCKED: 2 error(s), 0 warning(s)" in proc.stdout
    assert "2 model(s): 1 blocked, 1 ok" in proc.stdout
    assert f"config: {checkout.resolve() / 'pyproject.toml'}" in _flat(proc.stdout)  # found from the model upward
    clean = subprocess.run(_hook_command() + passed[:1], cwd=checkout, env=_env(), capture_output=True, text=True)
    assert clean.returncode == 0 and clean.stderr == ""


def test_readme_ci_section_config_is_valid_and_names_the_hook(tmp_path):
    from npuready.lint.config import load_config

    readme = (REPO / "README.md").read_text()
    section = readme.split("## Lint in CI", 1)[1].split("\n## ", 1)[0]
    toml = section.split("```toml\n", 1)[1].split("```", 1)[0]
    cfg = load_config(write(tmp_path / "pyproject.toml", toml))
    assert (cfg.target, cfg.ignore, [w.rule for w in cfg.waivers]) == ("edge-10", ("R004",), ["R006"])
    assert f"id: {HOOKS[0]['id']}" in section
    assert all(f"{key}:" in section for key in ("models", "target", "fail-on") if key in ACTION["inputs"])
