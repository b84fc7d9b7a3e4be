"""docs/support.md: the probe table rendered as Markdown (generated; a test fails when it is stale).

``npuready docs`` renders it from the stored ``experiments/probes/result.json`` (``from_result``), so
the page shows exactly the measured run; ``npuready probes --docs FILE`` renders a live run.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULT_PATH = Path("experiments") / "probes" / "result.json"
STORED = "experiment `probes` (`experiments/probes/result.json`; rerun with `npuready run probes`)"
LIVE = "`npuready probes`"


def from_result(root: Path) -> dict[str, Any]:
    """The probe table stored by experiment ``probes`` (same keys as ``probes.run.table``)."""
    stored = json.loads((root / RESULT_PATH).read_text(encoding="utf-8"))["results"]["probes"]
    return {"basis": stored["basis"], "evidence": stored["evidence"], "runtime": stored["runtime"],
            "summary": stored["summary"], "probes": stored["rows"]}


def _shapes(shapes: list[list[int]]) -> str:
    return ", ".join("[" + ",".join(str(d) for d in s) + "]" for s in shapes) or "-"


def render(table: dict[str, Any], source: str = STORED) -> str:
    rt = table["runtime"]
    s = table["summary"]
    lines = [
        "# Operator probes - onnxruntime baseline, not NPU support",
        "",
        f"> **{table['basis']}**",
        "",
        f"Generated from {source}; probes defined in `generator/npuready/probes/`; "
        f"run with onnxruntime {rt['onnxruntime']} "
        f"({rt['provider']}) and onnx {rt['onnx']}; do not edit by hand. Evidence: {table['evidence']} "
        "(each probe graph was built in code, given to onnxruntime, and run once on seeded random input).",
        "",
        f"{s['probes']} probes: {s['accepted']} accepted, {s['failed']} failed.",
        "",
        "The lint rules (docs/rules/) are design principles about what is safe to hand an NPU compiler; this table "
        "only records what the CPU reference runtime accepts. An activation may be allowed by a target "
        "(rule R005) only if its probe here is accepted.",
        "",
    ]
    groups = (("activation", "Activations"), ("op", "Operators"), ("pattern", "Patterns"))
    for group, heading in groups:
        rows = [r for r in table["probes"] if r["group"] == group]
        if not rows:
            continue
        lines += [f"## {heading}", "", "| probe | ops | what | opset | onnxruntime | input | output | error |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in rows:
            verdict = "accepted" if r["accepted"] else f"failed ({r['stage']})"
            err = r["error"].replace("|", "\\|") or "-"
            lines.append(f"| {r['name']} | {', '.join(r['op_types'])} | {r['description']} | {r['opset']} "
                         f"| {verdict} | "
                         f"{_shapes(r['input_shapes'])} | {_shapes(r['output_shapes'])} | {err} |")
        lines.append("")
    return "\n".join(lines)
