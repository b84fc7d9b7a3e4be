"""Arm Vela adapter — validation only: compile an INT8 .tflite with ``--verbose-performance`` for the
system a mirror target names (``[reference]`` in its TOML), parse the per-layer and summary CSVs, and
line Vela's rows up with our per-node costs.

Vela writes ``<model>_per-layer.csv`` (one row per NNG operator: "Original Operator", "NNG Operator",
"Op Cycles", "NPU", "SRAM AC", ..., "Name" = the operator's output tensor) and
``<model>_summary_<system>.csv`` (one row: ``cycles_total``, ``cycles_npu``, ``inference_time`` ...).
The exporter keeps ONNX tensor names, so a Vela row is matched to the ONNX nodes that produce its
tensor since the previous matched tensor (a fused Conv+ReLU is one Vela operator and two ONNX nodes).
Vela rows whose tensor is not in the ONNX graph (e.g. ``..._intermediate`` of a lowered Mean) are
merged into the next row that is; rows Vela leaves to the CPU (``Target`` CPU, NNG operator Passthrough: 0 NPU
cycles, e.g. a GatherV2) are dropped, so they never absorb the NPU rows before them (the transposes Vela adds
around a CPU Gather belong to the NPU layer that consumes them); rows of a tensor seen before (a Concat that Vela writes
with several ops, not always one after another) are merged into its first entry, so each tensor's ONNX nodes are
costed once.
"""
from __future__ import annotations

import csv
import importlib.metadata
import subprocess
import sys
from pathlib import Path

from npuready.errors import InputError
from npuready.graph import Graph
from npuready.targets import Target

# Vela's "Original Operator" (TFLite builtin) -> comparison category
VELA_CATEGORY = {
    "Conv2D": "conv", "DepthwiseConv2D": "depthwise", "TransposeConv": "conv",
    "MaxPool": "pooling", "AvgPool": "pooling", "Mean": "pooling", "ReduceSum": "pooling",
    "Add": "add", "Sub": "add", "FullyConnected": "fully_connected", "BatchMatMul": "fully_connected",
}
CATEGORIES = ("conv", "depthwise", "pooling", "add", "fully_connected", "other")


def version() -> str:
    return importlib.metadata.version("ethos-u-vela")


def compile_tflite(tflite: Path, target: Target, outdir: Path) -> tuple[list[dict], dict]:
    """Run Vela for ``target``'s reference system; return (per-layer rows, summary row)."""
    ref = target.reference
    if ref.get("tool") != "vela":
        raise InputError(f"target {target.name}: not a Vela mirror ([reference] tool = '{ref.get('tool')}')")
    outdir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "ethosu.vela", str(tflite), "--accelerator-config", ref["accelerator"],
           "--verbose-performance", "--output-dir", str(outdir)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    stem = tflite.stem
    per_layer = outdir / f"{stem}_per-layer.csv"
    summaries = sorted(outdir.glob(f"{stem}_summary_*.csv"))
    if proc.returncode != 0 or not per_layer.exists() or not summaries:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise InputError(f"vela on {tflite} failed (exit {proc.returncode}): {tail[0]}")
    summary = parse_summary(summaries[0])
    if summary.get("system_config") != ref["system_config"] or summary.get("memory_mode") != ref["memory_mode"]:
        raise InputError(f"vela used {summary.get('system_config')}/{summary.get('memory_mode')}, but target "
                         f"{target.name} mirrors {ref['system_config']}/{ref['memory_mode']}")
    return parse_per_layer(per_layer), summary


def _number(text: str):
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def parse_per_layer(path: Path) -> list[dict]:
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    need = ("Original Operator", "NNG Operator", "Op Cycles", "Name")
    if not rows or any(k not in rows[0] for k in need):
        raise InputError(f"{path}: not a Vela per-layer CSV (needs columns {', '.join(need)})")
    return [{k.strip(): _number(v.strip()) if k.strip() != "Name" else v.strip() for k, v in r.items()} for r in rows]


def parse_summary(path: Path) -> dict:
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    if len(rows) != 1 or "cycles_total" not in rows[0]:
        raise InputError(f"{path}: not a Vela summary CSV (needs one row with cycles_total)")
    return {k: _number(v) for k, v in rows[0].items()}


def vela_ops(rows: list[dict], graph: Graph) -> list[dict]:
    """Vela rows merged per output tensor known to the ONNX graph, in execution order."""
    ops: list[dict] = []
    pending: list[dict] = []
    for row in rows:
        if row.get("Target") == "CPU":  # a CPU Passthrough row has no NPU cycles and is not an anchor
            continue
        pending.append(row)
        if row["Name"] not in graph.tensors and row["Name"] not in graph.producers:
            continue
        first = next((p for p in pending if p["Original Operator"] in VELA_CATEGORY), pending[0])
        op = _merged(row["Name"], first["Original Operator"], pending)
        seen = next((o for o in ops if o["tensor"] == row["Name"]), None)
        if seen is not None:  # the tensor again (e.g. a Concat written by several ops): one entry per tensor,
            seen["cycles"] += op["cycles"]  # so its ONNX nodes are counted once
            seen["vela_ops"] += op["vela_ops"]
        else:
            ops.append(op)
        pending = []
    if pending:  # trailing rows with unknown tensors: keep them so totals still add up
        ops.append(_merged(pending[-1]["Name"], pending[0]["Original Operator"], pending))
    return ops


def _merged(tensor: str, original: str, rows: list[dict]) -> dict:
    """One comparison entry for ``tensor``: the summed cycles and the NNG operators of ``rows``."""
    return {"tensor": tensor, "original_operator": original, "category": VELA_CATEGORY.get(original, "other"),
            "cycles": sum(int(p["Op Cycles"]) for p in rows), "vela_ops": [p["NNG Operator"] for p in rows]}


def node_groups(graph: Graph, tensors: set[str]) -> dict[str, str]:
    """ONNX node name -> the Vela tensor it contributes to (the nearest matched tensor downstream)."""
    group: dict[str, str] = {}
    for node in reversed(graph.nodes):
        out = next((o for o in node.outputs if o in tensors), None)
        if out is not None:
            group[node.name] = out
            continue
        for o in node.outputs:
            for consumer in graph.consumers.get(o, ()):
                if consumer.name in group:
                    group[node.name] = group[consumer.name]
                    break
            if node.name in group:
                break
    return group
