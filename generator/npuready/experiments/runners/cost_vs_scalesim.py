"""Experiment `cost-vs-scalesim`: our systolic-array cycles vs SCALE-Sim 3.0.0 on every conv/FC layer.

For each model (built-in examples + zoo exports) and each array (the array of a systolic target, one
core), every conv/FC node is costed by ``npuready.cost.gemm`` and simulated by SCALE-Sim (output
stationary, same rows x cols). Per-layer and per-model ratios ours / SCALE-Sim are recorded.
Unit of work: one model x one array; the merge lists them model-major and computes the summary.
Needs ``.venv-scalesim`` (``bash tools/scalesim_env.sh``).
"""
from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path
from typing import Any

from npuready.cost import scalesim
from npuready.cost.model import gemm_mapping
from npuready.cost.workload import workload
from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.cost_models import cost_model, cost_model_names
from npuready.experiments.task import Task
from npuready.graph import load
from npuready.targets import load_target


def compare(graph, target, python: Path, workdir: Path) -> dict[str, Any]:
    """One model x one array (one core of the target): per-layer pairs and totals."""
    if target.engine != "systolic-os":
        raise InputError(f"target {target.name}: engine '{target.engine}' is not a systolic array; SCALE-Sim "
                         "validates systolic-os targets only")
    t = dataclasses.replace(target, cores=1)
    nodes, sims = [], []
    for node in graph.nodes:
        layer = scalesim.sim_layer(graph, node)
        if layer is not None:
            nodes.append(node)
            sims.append(layer)
    report = scalesim.run(sims, t.array_rows, t.array_cols, workdir, python)
    layers = []
    for node, sim, row in zip(nodes, sims, report):
        w = workload(graph, node)
        ours = gemm_mapping(w, t).cycles
        ref = row["total_cycles"] * sim.repeat
        layers.append({"node": node.name, "op_type": node.op_type, "kind": w.kind, "m": w.m, "k": w.k, "n": w.n,
                       "groups": w.groups, "ours_cycles": ours, "reference_cycles": ref, "reference_repeat": sim.repeat,
                       "ratio": round(ours / ref, 6), "reference_stall_cycles": row["stall_cycles"] * sim.repeat,
                       "reference_mapping_efficiency_pct": round(row["mapping_efficiency_pct"], 4)})
    ours_total = sum(x["ours_cycles"] for x in layers)
    ref_total = sum(x["reference_cycles"] for x in layers)
    return {"ours_cycles": ours_total, "reference_cycles": ref_total, "ratio": round(ours_total / ref_total, 6),
            "array": f"{t.array_rows}x{t.array_cols}", "layers": layers}


def _python(ctx: RunContext) -> Path:
    python = scalesim.python_path(ctx.repo)
    if python is None:
        raise InputError(f"{ctx.repo / scalesim.VENV}: missing; create it with 'bash tools/scalesim_env.sh'")
    return python


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model x array (target), model-major."""
    ctx.tool("scalesim", scalesim.version(_python(ctx)))
    targets = list(ctx.params.get("targets", ["edge-10"]))
    return [Task(f"{m}@{t}", {"model": m, "target": t}) for m in cost_model_names(ctx) for t in targets]


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    name, tname = args["model"], args["target"]
    graph = load(cost_model(ctx, name))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="npuready-scalesim-") as tmp:
        result = compare(graph, load_target(tname), _python(ctx), Path(tmp) / "run")
    ctx.timing(f"scalesim.{name}.{tname}", time.perf_counter() - start)
    return {"model": name, "target": tname, **result}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    rows = list(outputs.values())
    worst_layer = max((abs(x["ratio"] - 1) for r in rows for x in r["layers"]), default=0.0)
    worst_model = max((abs(r["ratio"] - 1) for r in rows), default=0.0)
    return {
        "comparison": {
            "evidence": "simulated",
            "what": "compute cycles of every conv/FC layer: npuready.cost (output-stationary formula) vs SCALE-Sim "
                    "COMPUTE_REPORT 'Total Cycles' (no stalls); both are models, neither is silicon",
            "models": rows,
        },
        "summary": {
            "evidence": "simulated",
            "pairs": len(rows), "layers": sum(len(r["layers"]) for r in rows),
            "max_abs_layer_error": round(worst_layer, 6), "max_abs_model_error": round(worst_model, 6),
            "layer_goal": 0.01, "model_goal": 0.001,
            "goal_met": worst_layer <= 0.01 and worst_model <= 0.001,
        },
    }
