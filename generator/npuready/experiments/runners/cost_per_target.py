"""Experiment `cost-per-target`: every example/zoo model on every target (simulated cost figures)."""
from __future__ import annotations

from typing import Any

from npuready.cost import estimate
from npuready.experiments.context import RunContext
from npuready.experiments.cost_models import cost_models
from npuready.graph import load
from npuready.targets import load_target


def run(ctx: RunContext) -> dict[str, Any]:
    models = cost_models(ctx)
    targets = list(ctx.params.get("targets", ["edge-10"]))
    rows = []
    for name in ctx.progress(list(models), "cost"):
        graph = load(models[name])
        for tname in targets:
            target = load_target(tname)
            report = estimate(graph, target)
            total = report.total()
            rows.append({
                "model": name, "target": tname, "target_kind": target.kind, "tops": round(target.tops, 4),
                "cycles": total["cycles"], "npu_cycles": total["npu_cycles"], "latency_s": total["latency_s"],
                "inferences_per_s": total["inferences_per_s"], "utilisation": total["npu_utilisation"],
                "energy_uj": total["energy_uj"], "macs": total["macs"], "host_s": total["host_s"],
                "transfer_bytes": total["transfer_bytes"], "layers_cpu": total["layers_cpu"],
                "compute_bound": total["compute_bound"], "memory_bound": total["memory_bound"],
                "placement_source": report.placement_source,
            })
    return {"costs": {"evidence": "simulated",
                      "what": "npuready.cost analytic model per model x target; virtual targets are design "
                              "assumptions, mirrors follow Vela's default Ethos-U systems; nothing measured on silicon",
                      "rows": rows}}
