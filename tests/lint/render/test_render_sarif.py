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
