"""Pruning study: for a model and targets, MACs / simulated cycles / measured accuracy per criterion.

Criteria: uniform (same fraction from every group), array-aligned (counts rounded to the target's
array width), cost-greedy (removes the blocks that save the most simulated cycles per unit of
importance, down to the cycles the uniform cut reached on that target). Each pruned model gets the
same short recovery training.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

import torch
from torch import nn

from npuready.surgery import criteria
from npuready.surgery.cycles import CycleEstimator, LayerCycleEstimator
from npuready.surgery.deps import analyse
from npuready.surgery.prune import apply_plan
from npuready.surgery.recover import evaluate, recover


def prune_study(model: nn.Module, input_shape: tuple[int, ...], targets: list[str], ratio: float,
                data: tuple, recovery_steps: int, seed: int = 0,
                progress: Callable = lambda it, _d: it) -> dict[str, Any]:
    xtr, ytr, xte, yte = data
    example = torch.zeros(input_shape)
    deps = analyse(model, example)
    base_acc = evaluate(model, xte, yte)
    rows: list[dict[str, Any]] = []
    estimators = {t: CycleEstimator(t, input_shape) for t in targets}
    base = {t: estimators[t].report(model) for t in targets}

    def measure(kind: str, target: str | None, plan: dict, extra: dict | None = None) -> None:
        pruned = apply_plan(copy.deepcopy(model), deps, plan)
        after_cut = evaluate(pruned, xte, yte)
        recovered = recover(pruned, xtr, ytr, recovery_steps, seed=seed)
        row = {"criterion": kind, "planned_for": target, "channels": criteria.describe(deps, plan),
               "accuracy_after_cut": after_cut, "accuracy_after_recovery": evaluate(recovered, xte, yte),
               "per_target": {}}
        for t in targets:
            rep = estimators[t].report(pruned)
            row["per_target"][t] = {"cycles": rep["cycles"], "macs": rep["macs"],
                                    "cycles_fraction": rep["cycles"] / base[t]["cycles"],
                                    "macs_fraction": rep["macs"] / base[t]["macs"]}
        row.update(extra or {})
        rows.append(row)

    jobs: list[tuple[str, str | None]] = [("uniform", None)] + [(k, t) for t in targets
                                                                for k in ("array_aligned", "cost_greedy")]
    for kind, target in progress(jobs, "pruning criteria"):
        if kind == "uniform":
            measure(kind, None, criteria.uniform(model, deps, ratio))
        elif kind == "array_aligned":
            align = estimators[target].target.array_cols
            measure(kind, target, criteria.array_aligned(model, deps, ratio, align), {"align": align})
        else:
            step = max(2, min(g.length for g in deps.prunable_groups()) // 4)
            fast = LayerCycleEstimator(target, input_shape, model)
            # the greedy search steers by MAC-layer cycles; its budget is the uniform cut's MAC-layer fraction
            uniform_model = apply_plan(copy.deepcopy(model), deps, criteria.uniform(model, deps, ratio))
            budget = fast(uniform_model) / fast(model)
            plan, trace = criteria.cost_greedy(model, deps, fast, budget, step=step)
            measure(kind, target, plan, {"budget_cycles_fraction": budget, "greedy_steps": len(trace), "step": step})
    return {"accuracy": base_acc, "baseline": base, "groups": criteria.describe(deps, {}), "rows": rows,
            "ratio": ratio, "recovery_steps": recovery_steps}
