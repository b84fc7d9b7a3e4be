"""Experiment `pruning`: MACs vs simulated NPU cycles vs measured accuracy per pruning criterion.

Unit of work: one model (its study runs every criterion; the recovery training reseeds torch itself, so a
model's numbers do not depend on the models studied before it in the same process).
"""
from __future__ import annotations

import time
from typing import Any

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def tasks(ctx: RunContext) -> list[Task]:
    return [Task(name, {"model": name}) for name in ctx.params["models"]]


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    import torch

    from npuready.models import load, onnx_path
    from npuready.models.zoo import spec as zoo_spec
    from npuready.surgery.recover import fashion_tensors
    from npuready.surgery.study import prune_study

    p = ctx.params
    seed = ctx.seed("torch", int(p.get("seed", 0)))
    torch.manual_seed(seed)
    torch.set_num_threads(int(p.get("threads", 1)))  # one per task: a sweep runs tasks side by side
    ctx.tool("torch", torch.__version__)
    name = args["model"]
    spec = zoo_spec(name)
    ctx.input(f"zoo/{name}.pt")
    ctx.input(onnx_path(name))
    data = fashion_tensors(spec.mean[0], spec.std[0], test_images=int(p["test_images"]))
    start = time.perf_counter()
    study = prune_study(load(name), spec.input_shape, list(p["targets"]), float(p["ratio"]), data,
                        int(p["recovery_steps"]), seed=seed)
    ctx.timing(f"{name}_s", time.perf_counter() - start)
    return {"study": {"evidence": "measured", "accuracy_unpruned": study["accuracy"],
                      "groups": study["groups"], "rows": study["rows"]},
            "baseline_cost": {"evidence": "simulated", **study["baseline"]}}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    p = ctx.params
    out: dict[str, Any] = {
        "setup": {"evidence": "measured", "ratio": p["ratio"], "recovery_steps": p["recovery_steps"],
                  "targets": p["targets"], "test_images": p["test_images"],
                  "note": "accuracy measured on the Fashion-MNIST test images; cycles and MACs from the analytic "
                          "cost model (simulated)"},
    }
    for name, o in outputs.items():
        out[name] = o["study"]
        out[f"{name}_baseline_cost"] = o["baseline_cost"]
    return out
