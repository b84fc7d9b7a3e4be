"""Experiment `activation-swap`: replace host-fallback activations, then recover accuracy.

Per (model, target): accuracy before → right after the swap → after a short recovery training
(measured), with R005 findings and simulated cycles of the exported graph before and after.
Unit of work: one model x one target (each task evaluates the unswapped model itself).
"""
from __future__ import annotations

import copy
import time
from typing import Any

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def _graph_facts(model, input_shape, target) -> dict[str, Any]:
    """Export and load once; cost (simulated) and lint the same graph."""
    from npuready.cost import estimate
    from npuready.graph import load
    from npuready.lint import lint
    from npuready.surgery.cycles import export

    graph = load(export(model, input_shape))
    rep = estimate(graph, target)
    report = lint(graph, target=target)
    return {"cycles": int(rep.cycles), "latency_s": float(rep.latency_s), "macs": int(rep.macs),
            "r005_findings": len(report.by_rule("R005")), "lint_errors": len(report.errors),
            "host_activations": sorted({f.op_type for f in report.by_rule("R005")})}


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model x target."""
    return [Task(f"{m}@{t}", {"model": m, "target": t}) for m in ctx.params["models"] for t in ctx.params["targets"]]


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    import torch

    from npuready.models import load, onnx_path
    from npuready.models.zoo import spec as zoo_spec
    from npuready.surgery.recover import evaluate, fashion_tensors, recover
    from npuready.surgery.swap import swap_activations
    from npuready.targets import load_target

    p = ctx.params
    seed = ctx.seed("torch", int(p.get("seed", 0)))
    torch.set_num_threads(int(p.get("threads", 2)))
    ctx.tool("torch", torch.__version__)
    name, target = args["model"], args["target"]
    spec = zoo_spec(name)
    ctx.input(f"zoo/{name}.pt")
    ctx.input(onnx_path(name))
    xtr, ytr, xte, yte = fashion_tensors(spec.mean[0], spec.std[0], test_images=int(p["test_images"]))
    original = load(name)
    before = evaluate(original, xte, yte)
    start = time.perf_counter()
    swapped, swaps = swap_activations(copy.deepcopy(original), load_target(target))
    row = {"model": name, "target": target, "swaps": [s.__dict__ for s in swaps], "accuracy_before": before}
    if swaps:
        row["accuracy_after_swap"] = evaluate(swapped, xte, yte)
        torch.manual_seed(seed)
        recovered = recover(swapped, xtr, ytr, int(p["recovery_steps"]), seed=seed)
        row["accuracy_after_recovery"] = evaluate(recovered, xte, yte)
    else:
        recovered = original
        row["accuracy_after_swap"] = None
        row["accuracy_after_recovery"] = None
        row["note"] = "the target runs every activation of this model on the NPU; nothing to swap"
    simulated = {"model": name, "target": target, "before": _graph_facts(original, spec.input_shape, target),
                 "after": _graph_facts(recovered, spec.input_shape, target)}
    ctx.timing(f"{name}_{target}_s", time.perf_counter() - start)
    return {"measured": row, "simulated": simulated}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    p = ctx.params
    return {
        "setup": {"evidence": "measured", "recovery_steps": p["recovery_steps"], "test_images": p["test_images"],
                  "replacement_order": ["Hardswish", "ReLU6", "ReLU"]},
        "accuracy": {"evidence": "measured", "rows": [o["measured"] for o in outputs.values()]},
        "cost": {"evidence": "simulated", "rows": [o["simulated"] for o in outputs.values()]},
    }
