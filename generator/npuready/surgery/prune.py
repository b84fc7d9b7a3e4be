"""Apply a structured channel-pruning plan (group id → kept channel indices) to a model, in place.

The plan comes from ``npuready.surgery.criteria``; which parameters move together comes from
``npuready.surgery.deps`` — nothing here knows model names.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import torch
from torch import nn

from npuready.surgery.deps import Dependencies, Segment


def _index(segments: Sequence[Segment], keep_root: Mapping[int, torch.Tensor]) -> torch.Tensor:
    parts, offset = [], 0
    for s in segments:
        kept = keep_root.get(s.root)
        idx = torch.arange(s.length) if kept is None else kept
        if s.factor > 1:
            idx = (idx[:, None] * s.factor + torch.arange(s.factor)[None, :]).reshape(-1)
        parts.append(idx + offset)
        offset += s.length * s.factor
    return torch.cat(parts) if parts else torch.zeros(0, dtype=torch.long)


def _take(param: torch.Tensor | None, dim: int, idx: torch.Tensor) -> None:
    if param is None:
        return
    param.data = param.data.index_select(dim, idx).clone()
    if param.grad is not None:
        param.grad = None


def apply_plan(model: nn.Module, deps: Dependencies, plan: Mapping[int, Sequence[int]]) -> nn.Module:
    """Keep ``plan[group_id]`` channels of each planned group; every tied module shrinks consistently."""
    for gid, kept in plan.items():
        group = deps.groups[gid]
        if not group.prunable:
            raise ValueError(f"channel group {gid} ({', '.join(group.producers)}) is not prunable: {group.reason}")
        if not kept or max(kept) >= group.length or len(set(kept)) != len(kept):
            raise ValueError(f"channel group {gid}: kept indices must be distinct, non-empty and < {group.length}")
    keep_root = {}
    for rid, gid in deps.root_group.items():
        if gid in plan:
            keep_root[rid] = torch.tensor(sorted(plan[gid]), dtype=torch.long)
    modules = dict(model.named_modules())
    for use in deps.uses:
        if not any(s.root in keep_root for s in use.segments):
            continue
        idx = _index(use.segments, keep_root)
        m = modules[use.module]
        if use.role == "out":
            _take(m.weight, 0, idx)
            _take(m.bias, 0, idx)
            if isinstance(m, nn.Conv2d):
                m.out_channels = len(idx)
            else:
                m.out_features = len(idx)
        elif use.role == "in":
            _take(m.weight, 1, idx)
            if isinstance(m, nn.Conv2d):
                m.in_channels = len(idx)
            else:
                m.in_features = len(idx)
        elif use.role == "bn":
            _take(m.weight, 0, idx)
            _take(m.bias, 0, idx)
            m.running_mean = m.running_mean.index_select(0, idx).clone()
            m.running_var = m.running_var.index_select(0, idx).clone()
            m.num_features = len(idx)
        elif use.role == "dw":
            _take(m.weight, 0, idx)
            _take(m.bias, 0, idx)
            m.in_channels = m.out_channels = m.groups = len(idx)
    return model


def count_macs(model: nn.Module, example: torch.Tensor) -> int:
    """Multiply-accumulates of Conv2d and Linear layers for one forward pass of ``example``."""
    total = 0

    def conv_hook(m, inp, out):
        nonlocal total
        total += out.numel() // out.shape[0] * (m.in_channels // m.groups) * m.kernel_size[0] * m.kernel_size[1]

    def lin_hook(m, inp, out):
        nonlocal total
        total += out.numel() // out.shape[0] * m.in_features

    hooks = []
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            hooks.append(m.register_forward_hook(conv_hook))
        elif isinstance(m, nn.Linear):
            hooks.append(m.register_forward_hook(lin_hook))
    with torch.no_grad():
        model.eval()(example[:1])
    for h in hooks:
        h.remove()
    return int(total)
