"""Render a ``PartitionPlan`` as text or JSON (the plan itself is data)."""
from __future__ import annotations

from npuready.atomic import dumps_json
from npuready.graph.shapes_text import shapes_line


def _bytes(n: int | None) -> str:
    if n is None:
        return "? B"
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def _tensor(t: dict) -> str:
    shape = "?" if t["shape"] is None else "[" + ",".join(str(d) for d in t["shape"]) + "]"
    return f"{t['name']} {t['dtype']}{shape} {_bytes(t['bytes'])} ({t['layout']})"


def render_text(plan) -> str:
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
    lines.append(f"CPU↔NPU crossings ({_bytes(d['transfer_bytes_per_inference'])} per inference):")
    for c in d["crossings"]:
        lines.append(f"  {c['direction']}  {c['from']} → {', '.join(c['to'])}: {_tensor(c['tensor'])}")
    if not d["crossings"]:
        lines.append("  none")
    if d["folded"]:
        lines.append(f"folded (constants / shape helpers, follow their consumers): {len(d['folded'])} nodes")
    if d.get("shapes"):
        lines.append(shapes_line(d["shapes"]))
    lines.append("")
    lines.append("calibration data:")
    lines.append("  with CPU offload (original input): " + "; ".join(_tensor(t) for t in d["calibration"]["cpu_offload"]["tensors"]))
    for name, tensors in d["calibration"]["body_only"]["tensors"].items():
        lines.append(f"  {name} compiled alone (body input): " + "; ".join(_tensor(t) for t in tensors))
    if d["inventory"]:
        lines.append("")
        lines.append("runs on the CPU (what left the NPU graph):")
        for item in d["inventory"]:
            impl = item["cpu_function"] or "MISSING — no CPU implementation"
            lines.append(f"  {item['part']:<6} {item['node']} ({item['op_type']}): {item['computation']} → {impl}")
    if d["missing_cpu_code"]:
        lines.append(f"WARNING: {len(d['missing_cpu_code'])} CPU computation(s) have no CPU implementation: "
                     + ", ".join(d["missing_cpu_code"]))
    for text in d["graph_lint_errors"]:
        lines.append(f"lint ERROR on the whole graph (blocks deployment, not placement): {text}")
    if d["shape_inference_error"]:
        lines.append(f"shape inference failed ({d['shape_inference_error']}); nodes without static shapes stay on the CPU")
    lines.append("")
    lines.append(f"basis: {d['basis']}")
    return "\n".join(lines) + "\n"


def render_json(plan) -> str:
    return dumps_json(plan.to_dict())


def render(plan, fmt: str = "text") -> str:
    return render_json(plan) if fmt == "json" else render_text(plan)
