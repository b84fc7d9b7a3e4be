"""SARIF output validates against the real SARIF 2.1.0 schema and carries rules with help text."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from npuready.lint import lint
from npuready.lint.registry import RULES
from npuready.lint.render import render

SCHEMA = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text())


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    import onnx

    folder = tmp_path_factory.mktemp("sarif")
    out = []
    for rid in ("R003", "R004", "R001a"):
        path = folder / f"{rid} bad.onnx"  # a space: the URI must be escaped
        onnx.save(RULES[rid].bad_example(), path)
        out.append(lint(path, target="edge-10"))
    out.append(lint(RULES["R005"].good_example(), target="edge-10"))
    return out


def test_schema_is_the_sarif_2_1_0_schema():
    assert SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    jsonschema.Draft7Validator.check_schema(SCHEMA)


def test_sarif_validates_against_the_schema(reports):
    doc = json.loads(render(reports, "sarif"))
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(doc), key=str)
    assert errors == []


def test_rules_carry_help_and_default_level(reports):
    driver = json.loads(render(reports, "sarif"))["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == list(RULES)
    by_id = {r["id"]: r for r in driver["rules"]}
    assert by_id["R004"]["defaultConfiguration"]["level"] == "warning"
    assert by_id["R003"]["defaultConfiguration"]["level"] == "error"
    assert RULES["R003"].fix in by_id["R003"]["help"]["text"]


def test_results_point_at_the_model_and_the_node(reports):
    run = json.loads(render(reports, "sarif"))["runs"][0]
    results = run["results"]
    total = sum(len(r.findings) for r in reports)
    assert len(results) == total
    first = results[0]
    assert (first["ruleId"], first["level"]) == ("R003", "error")
    loc = first["locations"][0]
    assert loc["physicalLocation"]["artifactLocation"]["uri"].endswith("R003%20bad.onnx")
    assert loc["logicalLocations"][0]["name"] == "conv3d"
    assert loc["physicalLocation"]["region"] == {"startLine": 1}
    fingerprints = [r["partialFingerprints"]["npureadyNode/v2"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    again = json.loads(render(reports, "sarif"))["runs"][0]["results"]
    assert [r["partialFingerprints"] for r in again] == [r["partialFingerprints"] for r in results]
    assert [r["ruleIndex"] for r in results] == [list(RULES).index(r["ruleId"]) for r in results]


def _validate(doc):
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert sorted(validator.iter_errors(doc), key=str) == []


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A checkout: two models under models/, a waiver for one node, a target in the configuration."""
    from lint_config_models import activations, save, write

    root = tmp_path / "checkout"
    (root / ".git").mkdir(parents=True)
    write(root / "npuready.toml", '[lint]\ntarget = "edge-10"\n[[lint.waive]]\nrule = "R005"\nnode = "act0"\n'
                                  'model = "models/a.onnx"\nreason = "kept on the CPU"\nexpires = 2999-01-01\n')
    save(activations(2), root / "models" / "a.onnx")
    save(activations(1), root / "models" / "sub dir" / "b.onnx")
    monkeypatch.chdir(root / "models")
    return root


def _sarif(argv, capsys):
    from npuready.cli import main

    code = main(["lint", *argv, "-f", "sarif"])
    return code, json.loads(capsys.readouterr().out)


def test_uris_are_relative_to_the_git_root_with_original_uri_base_ids(repo, capsys):
    code, doc = _sarif(["a.onnx", str(repo / "models" / "sub dir" / "b.onnx")], capsys)
    assert code == 1
    _validate(doc)
    (run,) = doc["runs"]
    assert run["originalUriBaseIds"] == {"SRCROOT": {"uri": repo.resolve().as_uri() + "/"}}
    assert [a["location"] for a in run["artifacts"]] == [
        {"uri": "models/a.onnx", "uriBaseId": "SRCROOT"}, {"uri": "models/sub%20dir/b.onnx", "uriBaseId": "SRCROOT"}]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]] == [
        {"uri": "models/a.onnx", "uriBaseId": "SRCROOT", "index": 0}] * 2 + [
        {"uri": "models/sub%20dir/b.onnx", "uriBaseId": "SRCROOT", "index": 1}]
    assert run["automationDetails"] == {"id": "npuready/lint/edge-10/"}


def test_sarif_root_option_and_a_model_outside_it(repo, tmp_path, capsys):
    from lint_config_models import activations, save

    outside = save(activations(1), tmp_path / "outside.onnx")
    code, doc = _sarif(["a.onnx", str(outside), "--sarif-root", str(repo / "models")], capsys)
    _validate(doc)
    run = doc["runs"][0]
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == (repo / "models").resolve().as_uri() + "/"
    assert [a["location"] for a in run["artifacts"]] == [
        {"uri": "a.onnx", "uriBaseId": "SRCROOT"}, {"uri": outside.resolve().as_uri()}]


def test_waived_and_baselined_results_carry_suppressions_and_baseline_state(repo, capsys):
    from npuready.cli import main

    assert main(["lint", "a.onnx", "--write-baseline", str(repo / "base.json"), "--select", "R001"]) == 0
    capsys.readouterr()
    code, doc = _sarif(["a.onnx", "--baseline", str(repo / "base.json")], capsys)
    assert code == 1  # act1 is neither waived nor in the (R001-only) baseline
    _validate(doc)
    results = doc["runs"][0]["results"]
    assert [(r["locations"][0]["logicalLocations"][0]["name"], r.get("suppressions"), r["baselineState"])
            for r in results] == [
        ("act0", [{"kind": "external", "justification": "kept on the CPU",
                   "properties": {"npuready": "waiver", "source": "npuready.toml: lint.waive[0]",
                                  "expires": "2999-01-01"}}],
         "new"),
        ("act1", None, "new")]
    capsys.readouterr()
    assert main(["lint", "a.onnx", "--write-baseline", str(repo / "base.json")]) == 0
    capsys.readouterr()
    code, doc = _sarif(["a.onnx", "--baseline", str(repo / "base.json")], capsys)
    assert code == 0
    _validate(doc)
    act1 = doc["runs"][0]["results"][1]
    assert act1["baselineState"] == "unchanged"
    assert act1["suppressions"][0]["kind"] == "external"
    assert act1["suppressions"][0]["justification"] == f"recorded in baseline {repo / 'base.json'}"


def test_help_uri_per_rule_and_one_run_per_target(repo, capsys):
    code, doc = _sarif(["a.onnx", "--rules-url", "https://example.org/npuready/docs/rules/"], capsys)
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert [r["helpUri"] for r in rules] == [f"https://example.org/npuready/docs/rules/{rid}.md" for rid in RULES]
    assert {r["properties"]["severity"] for r in rules} == {"ERROR", "WARN"}
    default = json.loads(render(reports_for_targets(repo), "sarif"))
    _validate(default)
    assert [run["automationDetails"]["id"] for run in default["runs"]] == ["npuready/lint/edge-10/",
                                                                            "npuready/lint/ethos-u55-128/"]
    page = default["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"]
    assert page.startswith("file://") and page.endswith("/docs/rules/R001a.md")


def reports_for_targets(repo):
    model = repo / "models" / "a.onnx"
    return [lint(model, target="edge-10"), lint(model, target="ethos-u55-128")]
