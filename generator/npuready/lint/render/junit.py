"""JUnit XML rendering: one testsuite per model, one testcase per rule; ERROR findings are failures."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Sequence

from npuready.lint.report import LintReport
from npuready.lint.rule import Severity


def _line(f) -> str:
    return f"{f.where}: {f.message}"


def to_junit(reports: Sequence[LintReport]) -> ET.Element:
    from npuready.lint.registry import RULES

    root = ET.Element("testsuites", name="npuready lint")
    total = failures = 0
    for r in reports:
        suite = ET.SubElement(root, "testsuite", name=r.model, tests=str(len(r.rules_run)), errors="0", skipped="0")
        suite_failures = 0
        for rule_id in r.rules_run:
            rule = RULES[rule_id]
            case = ET.SubElement(suite, "testcase", classname=f"npuready.lint.{r.target}", name=f"{rule_id} {rule.title}")
            found = r.by_rule(rule_id)
            errors = [f for f in found if f.severity is Severity.ERROR]
            if errors:
                suite_failures += 1
                fail = ET.SubElement(case, "failure", type="ERROR",
                                     message=f"{len(errors)} finding(s): {_line(errors[0])}")
                fail.text = "\n".join(_line(f) for f in errors) + f"\nfix: {rule.fix}"
            warns = [f for f in found if f.severity is Severity.WARN]
            if warns:
                out = ET.SubElement(case, "system-out")
                out.text = "\n".join(f"WARN {_line(f)}" for f in warns)
        suite.set("failures", str(suite_failures))
        total += len(r.rules_run)
        failures += suite_failures
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    return root


def render(reports: Sequence[LintReport]) -> str:
    root = to_junit(reports)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
