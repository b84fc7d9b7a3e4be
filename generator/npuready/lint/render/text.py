"""Terminal rendering: one block per model, findings grouped by severity, then by rule."""
from __future__ import annotations

from typing import Sequence

from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, Severity
from npuready.terminal import block

BASIS = "basis: ONNX graph structure and onnxruntime acceptance - not NPU silicon."
_HEADINGS = {"ERROR": "ERROR (blocks deployment)", "WARN": "WARN (recorded only)", "INFO": "INFO (runs natively; recorded only)"}
MAX_LISTED = 8  # findings shown per rule in the terminal; the other formats list all


def _group(lines: list[str], label: str, findings: Sequence[Finding]) -> None:
    from npuready.lint.registry import RULES

    if not findings:
        return
    lines.append(f"  {_HEADINGS.get(label, label)}")
    by_rule: dict[str, list[Finding]] = {}
    for f in findings:
        by_rule.setdefault(f.rule, []).append(f)
    for rule_id, group in by_rule.items():
        rule = RULES.get(rule_id)
        title = rule.title if rule else ""
        lines.append(f"    {rule_id}  {title}  [{len(group)}]")
        for f in group[:MAX_LISTED]:
            lines.append(f"      - {f.where}: {f.message}")
        if len(group) > MAX_LISTED:
            lines.append(f"      ... and {len(group) - MAX_LISTED} more (--format json lists every finding)")
        if rule is not None:
            lines.append(f"      fix: {rule.fix}")


def render_one(r: LintReport) -> list[str]:
    verdict = "BLOCKED" if r.blocked else "ok"
    lines = [f"{r.model}  [target {r.target}]  {verdict}: {len(r.errors)} error(s), {len(r.warnings)} warning(s)"
             + (f", {len(r.infos)} info" if r.infos else "") + (f"  [profile {r.options.profile}]" if r.options.profile != "target" else "")]
    if r.options.allow_batched_input:
        lines.append("  note: --allow-batched-input: R001b (batch 1) not enforced (diagnostic graph)")
    if r.inference_error:
        lines.append(f"  note: shape inference incomplete ({r.inference_error}); linted what could be inferred")
    for sev in Severity:
        _group(lines, sev.value, [f for f in r.findings if f.severity is sev])
    return lines


def render(reports: Sequence[LintReport], width: int | None = None) -> str:
    """The reports for people: wrapped to ``width`` columns (default: the terminal's, 80 when not a terminal)."""
    lines: list[str] = []
    for r in reports:
        lines.extend(render_one(r))
        lines.append("")
    if len(reports) > 1:
        blocked = sum(r.blocked for r in reports)
        lines.append(f"{len(reports)} model(s): {blocked} blocked, {len(reports) - blocked} ok")
    lines.append(BASIS)
    return block(lines, width)
