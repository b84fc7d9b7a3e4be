"""Which channels to keep: uniform, array-aligned, and cost-greedy criteria.

All three return a plan ``{group_id: kept channel indices}`` for ``npuready.surgery.prune.apply_plan``.
Importance of a channel is the L1 norm of every producer's weights for it (the producers of a
group share channels through residual adds, so their norms add up).
"""
from __future__ import annotations

import copy
import math
from typing import Callable, Mapping

import torch
from torch import nn

from npuready.surgery.deps import Dependencies
from npuready.surgery.prune import apply_plan

Plan = dict[int, list[int]]
CyclesFn = Callable[[nn.Module], float]


def importance(model: nn.Module, deps: Dependencies) -> dict[int, torch.Tensor]:
    modules = dict(model.named_modules())
    scores: dict[int, torch.Tensor] = {}
    for g in deps.prunable_groups():
        total = torch.zeros(g.length)
        for name in g.producers:
            w = modules[name].weight.detach()
            total += w.abs().reshape(w.shape[0], -1).sum(dim=1)
        scores[g.id] = total
    return scores


def _top(scores: torch.Tensor, n: int) -> list[int]:
    return sorted(torch.argsort(scores, descending=True)[:n].tolist())


def uniform(model: nn.Module, deps: Dependencies, ratio: float) -> Plan:
    """Remove the same fraction ``ratio`` of channels from every prunable group (least important first)."""
    scores = importance(model, deps)
    return {g.id: _top(scores[g.id], max(1, g.length - int(round(g.length * ratio)))) for g in deps.prunable_groups()}


def aligned_count(length: int, ratio: float, align: int) -> int:
    """Channel count after removing ``ratio``, rounded to the array width (never above ``length``).

    Rounds down to a multiple of ``align`` when that keeps at least one full multiple; a group narrower
    than the array keeps its width, because removing channels there saves no array passes.
    """
    want = length - length * ratio
    if length <= align:
        return length
    rounded = int(math.floor(want / align)) * align
    return max(align, min(length, rounded if rounded > 0 else align))


def array_aligned(model: nn.Module, deps: Dependencies, ratio: float, align: int) -> Plan:
    scores = importance(model, deps)
    plan: Plan = {}
    for g in deps.prunable_groups():
        keep = aligned_count(g.length, ratio, align)
        if keep < g.length:
            plan[g.id] = _top(scores[g.id], keep)
    return plan


def cost_greedy(model: nn.Module, deps: Dependencies, cycles_fn: CyclesFn, budget_fraction: float,
                step: int = 4, min_channels: int = 4, max_rounds: int = 200) -> tuple[Plan, list[dict]]:
    """Greedily remove ``step``-channel blocks with the best saved-cycles per unit of importance lost.

    Stops when estimated cycles ≤ ``budget_fraction`` × the original, or when no removal saves cycles.
    Returns the plan and the trace of every accepted step (for the experiment record).
    """
    scores = importance(model, deps)
    order = {gid: torch.argsort(s, descending=True).tolist() for gid, s in scores.items()}
    keep_n = {g.id: g.length for g in deps.prunable_groups()}
    base = cycles_fn(model)
    current = base
    trace: list[dict] = []

    def plan_for(counts: Mapping[int, int]) -> Plan:
        return {gid: sorted(order[gid][:n]) for gid, n in counts.items() if n < deps.groups[gid].length}

    def cycles_of(counts: Mapping[int, int]) -> float:
        m = apply_plan(copy.deepcopy(model), deps, plan_for(counts))
        return cycles_fn(m)

    for _ in range(max_rounds):
        if current <= base * budget_fraction:
            break
        best = None
        for gid, n in keep_n.items():
            if n - step < min_channels:
                continue
            trial = dict(keep_n)
            trial[gid] = n - step
            saved = current - cycles_of(trial)
            lost = float(scores[gid][order[gid][n - step:n]].sum()) + 1e-12
            value = saved / lost
            if saved > 0 and (best is None or value > best[0]):
                best = (value, gid, saved)
        if best is None:
            break
        _, gid, saved = best
        keep_n[gid] -= step
        current -= saved
        trace.append({"group": gid, "producers": deps.groups[gid].producers, "kept": keep_n[gid],
                      "cycles": current})
    return plan_for(keep_n), trace


def describe(deps: Dependencies, plan: Plan) -> list[dict]:
    rows = []
    for g in deps.groups.values():
        rows.append({"group": g.id, "producers": g.producers, "channels": g.length,
                     "kept": len(plan[g.id]) if g.id in plan else g.length, "prunable": g.prunable,
                     "reason": g.reason})
    return rows
