"""Terminal rendering, grouped by severity."""
from __future__ import annotations

from typing import Sequence

from npuready.lint.report import LintReport


def render(reports: Sequence[LintReport]) -> str:
    lines: list[str] = []
    for r in reports:
        verdict = "BLOCKED" if r.blocked else "ok"
        lines.append(f"{r.model}  [target {r.target}]  {verdict}: {len(r.errors)} error(s), {len(r.warnings)} warning(s)")
        if r.inference_error:
            lines.append(f"  note: shape inference incomplete ({r.inference_error}); linted what could be inferred")
        for label, group in (("ERROR", r.errors), ("WARN", r.warnings)):
            if not group:
                continue
            lines.append(f"  {label}")
            for f in group:
                where = f"{f.graph}/{f.node}" if f.graph else f.node
                op = f" ({f.op_type})" if f.op_type else ""
                lines.append(f"    {f.rule}  {where}{op}: {f.message}")
        lines.append("")
    lines.append("basis: ONNX structure and onnxruntime acceptance — not NPU silicon.")
    return "\n".join(lines) + "\n"
