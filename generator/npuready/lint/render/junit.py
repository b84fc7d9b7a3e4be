"""JUnit XML rendering: one testsuite per model, one testcase per model × rule.

A testcase fails when its rule has active ERROR findings on that model; when every ERROR finding of
the rule is waived or baselined it is ``skipped`` with the reason. The classname names the target and
the model (``npuready.lint.<target>.<model path with dots>``), so two models never collide. Text that
XML 1.0 cannot carry (control characters) is replaced, so the document always parses.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Sequence

from npuready.lint.render.options import RenderOptions
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, Severity

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _line(f: Finding) -> str:
    tag = f"  [{f.suppression.tag}]" if f.suppression else ""
    return _xml(f"{f.where}: {f.message}{tag}")


def classname(target: str, model_key: str) -> str:
    model = model_key.replace("\\", "/").strip("/").replace("/", ".")
    return _xml(f"npuready.lint.{target}.{model}")


def _unique(names: list[str]) -> list[str]:
    """Distinct classnames even for paths that dot to the same text ("a/b.onnx" and "a.b.onnx")."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}~{seen[n]}")
    return out


def _case(suite: ET.Element, cls: str, r: LintReport, rule_id: str) -> bool:
    """One testcase; True when it failed."""
    from npuready.lint.registry import RULES

    rule = RULES[rule_id]
    case = ET.SubElement(suite, "testcase", classname=cls, name=_xml(f"{rule_id} {rule.title}"))
    found = r.by_rule(rule_id)
    errors = [f for f in found if f.severity is Severity.ERROR]
    active = [f for f in errors if not f.suppressed]
    if active:
        fail = ET.SubElement(case, "failure", type="ERROR", message=f"{len(active)} finding(s): {_line(active[0])}")
        fail.text = "\n".join(_line(f) for f in active) + _xml(f"\nfix: {rule.fix}")
    elif errors:
        reasons = sorted({f.suppression.tag for f in errors})
        ET.SubElement(case, "skipped", message=_xml("; ".join(reasons)))
    others = [f for f in found if f not in active]
    if others:
        out = ET.SubElement(case, "system-out")
        out.text = "\n".join(f"{f.severity} {_line(f)}" for f in others)
    return bool(active)


def to_junit(reports: Sequence[LintReport]) -> ET.Element:
    root = ET.Element("testsuites", name="npuready lint")
    total = failures = skipped = 0
    names = _unique([classname(r.target, r.key) for r in reports])
    for r, cls in zip(reports, names):
        suite = ET.SubElement(root, "testsuite", name=_xml(r.key), tests=str(len(r.rules_run)), errors="0")
        suite_failures = sum(_case(suite, cls, r, rule_id) for rule_id in r.rules_run)
        suite_skipped = len(suite.findall("testcase/skipped"))
        suite.set("failures", str(suite_failures))
        suite.set("skipped", str(suite_skipped))
        total += len(r.rules_run)
        failures += suite_failures
        skipped += suite_skipped
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("skipped", str(skipped))
    root.set("errors", "0")
    return root


def render(reports: Sequence[LintReport], options: RenderOptions | None = None) -> str:
    root = to_junit(reports)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
