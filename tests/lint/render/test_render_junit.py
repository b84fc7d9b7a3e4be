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
