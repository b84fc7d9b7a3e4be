"""JUnit XML: one testsuite per model, one testcase per rule, a failure per rule with ERROR findings."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from npuready.lint import lint
from npuready.lint.registry import RULES
from npuready.lint.render import render


def test_junit_parses_back_with_suites_cases_and_failures():
    reports = [lint(RULES["R003"].bad_example(), target="edge-10"), lint(RULES["R004"].bad_example(), target="edge-10")]
    root = ET.fromstring(render(reports, "junit"))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["r003_bad", "r004_bad"]
    for suite in suites:
        assert [c.get("name").split()[0] for c in suite.findall("testcase")] == list(RULES)
        assert suite.get("tests") == str(len(RULES))
    failed = [(s.get("name"), c.get("name").split()[0]) for s in suites for c in s.findall("testcase")
              if c.find("failure") is not None]
    assert failed == [("r003_bad", "R003")]
    assert suites[0].get("failures") == "1" and suites[1].get("failures") == "0"
    warn_case = next(c for c in suites[1].findall("testcase") if c.get("name").startswith("R004"))
    assert warn_case.find("system-out").text.startswith("WARN ")
    assert root.get("tests") == str(2 * len(RULES)) and root.get("failures") == "1"


def test_two_models_of_one_target_get_their_own_classname(tmp_path, monkeypatch):
    from lint_config_models import activations, save

    from npuready.lint.config import LintConfig

    config = LintConfig(root=tmp_path)
    paths = [save(activations(1), tmp_path / "models" / "a.onnx"), save(activations(2), tmp_path / "other" / "a.onnx"),
             save(activations(1), tmp_path / "models.a.onnx")]
    reports = [lint(p, target="edge-10", config=config) for p in paths]
    root = ET.fromstring(render(reports, "junit"))
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["models/a.onnx", "other/a.onnx", "models.a.onnx"]
    assert [{c.get("classname") for c in s.findall("testcase")} for s in suites] == [
        {"npuready.lint.edge-10.models.a.onnx"}, {"npuready.lint.edge-10.other.a.onnx"},
        {"npuready.lint.edge-10.models.a.onnx~2"}]
    r005 = [c for s in suites for c in s.findall("testcase") if c.get("name").startswith("R005 ")]
    assert [c.find("failure").get("message").split(":")[0] for c in r005] == ["1 finding(s)", "2 finding(s)",
                                                                              "1 finding(s)"]
    assert r005[1].find("failure").text.splitlines()[:2] == [
        "act0 (Softsign): activation Softsign is not in the allowlist of target edge-10",
        "act1 (Softsign): activation Softsign is not in the allowlist of target edge-10"]


def test_waived_errors_are_skipped_with_the_reason(tmp_path):
    from lint_config_models import activations, save, write

    from npuready.lint.config import load_config

    config = load_config(write(tmp_path / "npuready.toml", '[[lint.waive]]\nrule = "R005"\nnode = "act*"\n'
                                                          'reason = "CPU by <design> & \\"choice\\""\n'))
    report = lint(save(activations(2), tmp_path / "m.onnx"), target="edge-10", config=config)
    root = ET.fromstring(render([report], "junit"))
    case = next(c for c in root.iter("testcase") if c.get("name").startswith("R005 "))
    assert case.find("failure") is None
    assert case.find("skipped").get("message") == 'waived: CPU by <design> & "choice"'
    assert case.find("system-out").text.splitlines()[0].startswith("ERROR act0 (Softsign): ")
    assert (root.get("failures"), root.get("skipped")) == ("0", "1")


def test_control_characters_and_markup_in_names_still_parse():
    from onnx import helper

    from npuready.lint import examples as ex

    name = 'act<&>"\x01\x1b'
    m = ex.model([helper.make_node("Softsign", ["x"], ["y"], name=name)], [ex.value("x", [1, 4])],
                 [ex.value("y", [1, 4])], name="we<ird>\x02")
    root = ET.fromstring(render([lint(m, target="edge-10")], "junit"))
    case = next(c for c in root.iter("testcase") if c.get("name").startswith("R005 "))
    assert case.find("failure").text.startswith('act<&>"\ufffd\ufffd (Softsign): ')
    assert root.find("testsuite").get("name") == "we<ird>\ufffd"
