"""Render a ``PartitionPlan`` as text or JSON (the plan itself is data)."""
from __future__ import annotations

from npuready.atomic import dumps_json
from npuready.bytesize import NPU_DTYPE, counted, human
from npuready.graph.shapes_text import shapes_line
from npuready.terminal import block


def _shape(t: dict) -> str:
    return "?" if t["shape"] is None else "[" + ",".join(str(d) for d in t["shape"]) + "]"


def _tensor(t: dict) -> str:
    return f"{t['name']} {t['dtype']}{_shape(t)} {human(t['bytes'])} ({t['layout']})"


def _crossing_total(d: dict) -> str:
    """``E elements = SIZE per inference as exported (DTYPES); the int8 NPU build moves SIZE``."""
    dtypes = sorted({c["tensor"]["dtype"] or "?" for c in d["crossings"]})
    elements = d["transfer_elements_per_inference"]
    return (f"{elements:,} elements = {human(d['transfer_bytes_per_inference'])} per inference as exported "
            f"({', '.join(dtypes)}); the {NPU_DTYPE} NPU build ('npuready cost') moves {human(elements)}")


def render_text(plan, width: int | None = None) -> str:
    """The plan for people: wrapped to ``width`` columns (default: the terminal's, 80 when not a terminal)."""
    d = plan.to_dict()
    lines = [f"{d['model']}  target {d['target']}  edges={d['edges']}", f"verdict: {d['verdict_text']}"]
    if d["splitters"]:
        lines.append("  split by: " + ", ".join(f"{s['node']} ({s['op_type']}; {s['reason']})" for s in d["splitters"]))
    lines.append("")
    for seg in d["segments"]:
        ops = ", ".join(f"{op}×{n}" for op, n in seg["op_types"].items())
        lines.append(f"[{seg['index']}] {seg['name']:<8} {seg['device'].upper()}  {len(seg['nodes'])} nodes  "
                     f"{seg['mac_share'] * 100:.1f}% of MACs ({seg['macs']:,})")
        lines.append(f"      ops: {ops}")
    lines.append("")
    if d["crossings"]:
        lines.append(f"CPU↔NPU crossings: {_crossing_total(d)}")
    else:
        lines.append("CPU↔NPU crossings: none")
    for c in d["crossings"]:
        t = c["tensor"]
        lines.append(f"  {c['direction']}  {c['from']} → {', '.join(c['to'])}: {t['name']} {_shape(t)} "
                     f"({t['layout']}): {counted(t['elements'], t['dtype'], t['bytes'])}")
    if d["folded"]:
        lines.append(f"folded (constants / shape helpers, follow their consumers): {len(d['folded'])} nodes")
    if d.get("shapes"):
        lines.append(shapes_line(d["shapes"]))
    lines.append("")
    lines.append("calibration data:")
    lines.append("  with CPU offload (original input): "
                 + "; ".join(_tensor(t) for t in d["calibration"]["cpu_offload"]["tensors"]))
    for name, tensors in d["calibration"]["body_only"]["tensors"].items():
        lines.append(f"  {name} compiled alone (body input): " + "; ".join(_tensor(t) for t in tensors))
    if d["inventory"]:
        lines.append("")
        lines.append("runs on the CPU (what left the NPU graph):")
        for item in d["inventory"]:
            impl = item["cpu_function"] or "MISSING — needs hand-written CPU code"
            lines.append(f"  {item['part']:<6} {item['node']} ({item['op_type']}): {item['computation']} → {impl}")
    if d["missing_cpu_code"]:
        lines.append(f"WARNING: {len(d['missing_cpu_code'])} CPU computation(s) need hand-written CPU code: "
                     + ", ".join(d["missing_cpu_code"]))
    for text in d["graph_lint_errors"]:
        lines.append(f"lint ERROR on the whole graph (blocks deployment, not placement): {text}")
    if d["shape_inference_error"]:
        lines.append(f"shape inference failed ({d['shape_inference_error']}); nodes without static shapes stay on the "
                     "CPU")
    lines.append("")
    lines.append(f"basis: {d['basis']}")
    return block(lines, width)


def render_json(plan) -> str:
    return dumps_json(plan.to_dict())


def render(plan, fmt: str = "text") -> str:
    return render_json(plan) if fmt == "json" else render_text(plan)
