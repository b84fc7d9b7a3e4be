"""Terminal rendering: one block per model, findings grouped by severity, then by rule.

Waived and baselined findings are listed with their tag ("waived: reason", "baselined", "waiver
expired …") and are not counted in the verdict.
"""
from __future__ import annotations

from typing import Sequence

from npuready.graph.shapes_text import shapes_line
from npuready.lint.render.options import RenderOptions
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, Severity
from npuready.lint.suppression import BASELINE, WAIVER
from npuready.terminal import block

BASIS = "basis: ONNX graph structure and onnxruntime acceptance - not NPU silicon."
_HEADINGS = {"ERROR": "ERROR (blocks deployment)", "WARN": "WARN (recorded only)",
             "INFO": "INFO (runs natively; recorded only)"}
MAX_LISTED = 8  # findings shown per rule in the terminal; the other formats list all


def _listed(group: list[Finding]) -> list[Finding]:
    """Active findings first, then suppressed ones; MAX_LISTED of them."""
    return sorted(group, key=lambda f: f.suppressed)[:MAX_LISTED]


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
        for f in _listed(group):
            tag = f"  [{f.suppression.tag}]" if f.suppression else ""
            lines.append(f"      - {f.where}: {f.message}{tag}")
        if len(group) > MAX_LISTED:
            lines.append(f"      ... and {len(group) - MAX_LISTED} more (--format json lists every finding)")
        if rule is not None and not all(f.suppressed for f in group):
            lines.append(f"      fix: {rule.fix}")


def verdict(r: LintReport) -> str:
    counts = [f"{r.count(Severity.ERROR)} error(s)", f"{r.count(Severity.WARN)} warning(s)"]
    counts += [f"{r.count(s)} {s.value.lower()}" for s in Severity
               if s not in (Severity.ERROR, Severity.WARN) and r.count(s)]
    waived, baselined = len(r.suppressed(WAIVER)), len(r.suppressed(BASELINE))
    counts += [f"{waived} waived"] * bool(waived) + [f"{baselined} baselined"] * bool(baselined)
    state = "BLOCKED" if r.blocked else f"FAILED (fail-on {r.fail_on})" if r.failing else "ok"
    return f"{state}: {', '.join(counts)}"


def render_one(r: LintReport) -> list[str]:
    profile = f"  [profile {r.options.profile}]" if r.options.profile != "target" else ""
    lines = [f"{r.model}  [target {r.target}]  {verdict(r)}{profile}"]
    if r.config:
        lines.append(f"  config: {r.config}")
    if r.baseline:
        lines.append(f"  baseline: {r.baseline}")
    if r.options.allow_batched_input:
        lines.append("  note: --allow-batched-input: R001b (batch 1) not enforced (diagnostic graph)")
    if r.shapes:
        lines.append(f"  {shapes_line(r.shapes)}")
    if r.inference_error:
        lines.append(f"  note: shape inference incomplete ({r.inference_error}); linted what could be inferred")
    for severity in Severity:
        _group(lines, severity.value, [f for f in r.findings if f.severity is severity])
    return lines


def render(reports: Sequence[LintReport], options: RenderOptions | None = None, width: int | None = None) -> str:
    """The reports for people: wrapped to ``width`` columns (default: the terminal's, 80 when not a terminal)."""
    lines: list[str] = []
    for r in reports:
        lines.extend(render_one(r))
        lines.append("")
    if len(reports) > 1:
        blocked, failing = sum(r.blocked for r in reports), sum(r.failing for r in reports)
        other = f", {failing - blocked} failed" if failing > blocked else ""
        lines.append(f"{len(reports)} model(s): {blocked} blocked{other}, {len(reports) - failing} ok")
    lines.append(BASIS)
    return block(lines, width)
