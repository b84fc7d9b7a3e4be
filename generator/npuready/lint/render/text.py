"""Terminal rendering: one block per model, findings grouped by severity, then by rule."""
from __future__ import annotations

import textwrap
from typing import Sequence

from npuready.graph.shapes_text import shapes_line
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding

BASIS = "basis: ONNX graph structure and onnxruntime acceptance - not NPU silicon."
_HEADINGS = {"ERROR": "ERROR (blocks deployment)", "WARN": "WARN (recorded only)"}
WIDTH = 110
MAX_LISTED = 8  # findings shown per rule in the terminal; the other formats list all


def _wrapped(first: str, indent: str) -> list[str]:
    return textwrap.wrap(first, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False) or [first]


def _group(lines: list[str], label: str, findings: Sequence[Finding]) -> None:
    from npuready.lint.registry import RULES

    if not findings:
        return
    lines.append(f"  {_HEADINGS[label]}")
    by_rule: dict[str, list[Finding]] = {}
    for f in findings:
        by_rule.setdefault(f.rule, []).append(f)
    for rule_id, group in by_rule.items():
        rule = RULES.get(rule_id)
        title = rule.title if rule else ""
        lines.append(f"    {rule_id}  {title}  [{len(group)}]")
        for f in group[:MAX_LISTED]:
            lines.extend(_wrapped(f"      - {f.where}: {f.message}", " " * 8))
        if len(group) > MAX_LISTED:
            lines.append(f"      ... and {len(group) - MAX_LISTED} more (--format json lists every finding)")
        if rule is not None:
            lines.extend(_wrapped(f"      fix: {rule.fix}", " " * 11))


def render_one(r: LintReport) -> list[str]:
    verdict = "BLOCKED" if r.blocked else "ok"
    lines = [f"{r.model}  [target {r.target}]  {verdict}: {len(r.errors)} error(s), {len(r.warnings)} warning(s)"]
    if r.options.allow_batched_input:
        lines.append("  note: --allow-batched-input: R001b (batch 1) not enforced (diagnostic graph)")
    if r.shapes:
        lines.append(f"  {shapes_line(r.shapes)}")
    if r.inference_error:
        lines.append(f"  note: shape inference incomplete ({r.inference_error}); linted what could be inferred")
    _group(lines, "ERROR", r.errors)
    _group(lines, "WARN", r.warnings)
    return lines


def render(reports: Sequence[LintReport]) -> str:
    lines: list[str] = []
    for r in reports:
        lines.extend(render_one(r))
        lines.append("")
    if len(reports) > 1:
        blocked = sum(r.blocked for r in reports)
        lines.append(f"{len(reports)} model(s): {blocked} blocked, {len(reports) - blocked} ok")
    lines.append(BASIS)
    return "\n".join(lines) + "\n"
