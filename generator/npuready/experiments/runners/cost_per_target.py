"""Experiment `cost-per-target`: every example/zoo model on every target (simulated cost figures).

Unit of work: one model x one target; the merge lists the rows in model-major, target-minor order."""
from __future__ import annotations

from typing import Any

from npuready.cost import estimate
from npuready.experiments.context import RunContext
from npuready.experiments.cost_models import cost_model, cost_model_names
from npuready.experiments.task import Task
from npuready.graph import load
from npuready.targets import load_target


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model x target."""
    targets = list(ctx.params.get("targets", ["edge-10"]))
    return [Task(f"{m}@{t}", {"model": m, "target": t}) for m in cost_model_names(ctx) for t in targets]


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    graph = load(cost_model(ctx, args["model"]))
    tname = args["target"]
    target = load_target(tname)
    report = estimate(graph, target)
    total = report.total()
    return {
        "model": args["model"], "target": tname, "target_kind": target.kind, "tops": round(target.tops, 4),
        "cycles": total["cycles"], "npu_cycles": total["npu_cycles"], "latency_s": total["latency_s"],
        "inferences_per_s": total["inferences_per_s"], "utilisation": total["npu_utilisation"],
        "energy_uj": total["energy_uj"], "macs": total["macs"], "host_s": total["host_s"],
        "transfer_bytes": total["transfer_bytes"], "layers_cpu": total["layers_cpu"],
        "compute_bound": total["compute_bound"], "memory_bound": total["memory_bound"],
        "placement_source": report.placement_source,
    }


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    return {"costs": {"evidence": "simulated",
                      "what": "npuready.cost analytic model per model x target; virtual targets are design "
                              "assumptions, mirrors follow Vela's default Ethos-U systems; nothing measured on silicon",
                      "rows": list(outputs.values())}}
