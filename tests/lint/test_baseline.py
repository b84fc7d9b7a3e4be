"""Baseline round trip: record today's findings, then only new ones fail; entries are relative and stable."""
from __future__ import annotations

import json
import shutil

import pytest
from lint_config_models import activations, save, write

from npuready.cli import main
from npuready.lint.baseline import FORMAT


def _flat(text: str) -> str:
    """Text output wraps to the terminal width: compare with whitespace collapsed."""
    return " ".join(text.split())


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    write(root / "npuready.toml", '[lint]\ntarget = "edge-10"\n')
    save(activations(2), root / "models" / "m.onnx")
    monkeypatch.chdir(root)
    return root


def test_write_then_only_the_new_node_fails(repo, capsys):
    assert main(["lint", "models/m.onnx", "--write-baseline", "base.json"]) == 0
    assert "ok: 0 error(s), 0 warning(s), 2 baselined" in _flat(capsys.readouterr().out)
    assert json.loads((repo / "base.json").read_text()) == {"format": FORMAT, "findings": [
        {"model": "models/m.onnx", "node": "act0", "rule": "R005"},
        {"model": "models/m.onnx", "node": "act1", "rule": "R005"}]}
    assert main(["lint", "models/m.onnx", "--baseline", "base.json"]) == 0
    capsys.readouterr()
    save(activations(3), repo / "models" / "m.onnx")  # a third activation: one new finding
    assert main(["lint", "models/m.onnx", "--baseline", "base.json", "-f", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(f["node"], (f["suppression"] or {}).get("kind")) for f in data["findings"]] == [
        ("act0", "baseline"), ("act1", "baseline"), ("act2", None)]
    assert (data["summary"], data["suppressed"]) == ({"errors": 1, "warnings": 0, "infos": 0},
                                                     {"waived": 0, "baselined": 2})
    assert data["baseline"] == "base.json"


def test_entries_are_relative_to_the_config_root_whatever_the_cwd_or_checkout(repo, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(repo / "models")
    assert main(["lint", "m.onnx", "--write-baseline", str(repo / "base.json")]) == 0
    moved = tmp_path / "other-checkout"
    shutil.copytree(repo, moved)
    monkeypatch.chdir(moved)
    assert main(["lint", "models/m.onnx", "--baseline", "base.json"]) == 0
    assert "2 baselined" in _flat(capsys.readouterr().out)


def test_config_names_the_baseline(repo, capsys):
    assert main(["lint", "models/m.onnx", "--write-baseline", "ci/base.json"]) == 0
    write(repo / "npuready.toml", '[lint]\ntarget = "edge-10"\nbaseline = "ci/base.json"\n')
    assert main(["lint", "models/m.onnx"]) == 0
    save(activations(3), repo / "models" / "m.onnx")
    assert main(["lint", "models/m.onnx"]) == 1
    assert main(["lint", "models/m.onnx", "--isolated"]) == 1


def test_waived_findings_are_not_recorded(repo, capsys):
    write(repo / "npuready.toml",
          '[lint]\ntarget = "edge-10"\n[[lint.waive]]\nrule = "R005"\nnode = "act0"\nreason = "CPU"\n')
    assert main(["lint", "models/m.onnx", "--write-baseline", "base.json"]) == 0
    assert [e["node"] for e in json.loads((repo / "base.json").read_text())["findings"]] == ["act1"]
    assert "1 waived, 1 baselined" in _flat(capsys.readouterr().out)


def test_a_recorded_finding_does_not_cover_the_same_node_in_another_model(repo, capsys):
    save(activations(1), repo / "models" / "a.onnx")
    save(activations(1), repo / "models" / "b.onnx")
    assert main(["lint", "models/a.onnx", "--write-baseline", "base.json"]) == 0
    assert main(["lint", "models/a.onnx", "models/b.onnx", "--baseline", "base.json", "-f", "json",
                 "-o", "r.json"]) == 1
    data = json.loads((repo / "r.json").read_text())
    assert [(d["model_key"], d["summary"]["errors"], d["suppressed"]["baselined"]) for d in data] == [
        ("models/a.onnx", 0, 1), ("models/b.onnx", 1, 0)]
