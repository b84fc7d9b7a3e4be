"""Channel-dependency analysis on a ``torch.fx`` graph (no model names hard-coded).

Every tensor's channel axis is described by *segments*: a list of ``Segment(root, length,
factor)``. A root is a channel set created by a producer (a Conv's output channels or a
Linear's output features). Ops that keep channels (BatchNorm, activations, pooling,
depthwise convs) pass segments through; residual adds *tie* the roots of their operands
(union-find: both producers must keep the same channels); ``torch.cat`` on the channel
axis concatenates segment lists; ``flatten`` multiplies each segment by the spatial size.
Every module whose parameters are indexed by a channel axis is recorded as a ``Use``.
A root is prunable unless it reaches the model output or an op we cannot follow.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx
from torch import nn
from torch.fx.passes.shape_prop import ShapeProp

KEEP_CHANNELS = (nn.BatchNorm1d, nn.BatchNorm2d, nn.ReLU, nn.ReLU6, nn.Hardswish, nn.Hardsigmoid, nn.SiLU,
                 nn.GELU, nn.Sigmoid, nn.Tanh, nn.LeakyReLU, nn.Identity, nn.Dropout, nn.MaxPool2d,
                 nn.AvgPool2d, nn.AdaptiveAvgPool2d, nn.AdaptiveMaxPool2d, nn.ELU, nn.Mish)
KEEP_FUNCS = {torch.relu, torch.nn.functional.relu, torch.nn.functional.relu6, torch.sigmoid,
              torch.nn.functional.gelu, torch.nn.functional.silu, torch.nn.functional.hardswish,
              torch.nn.functional.adaptive_avg_pool2d, torch.nn.functional.max_pool2d,
              torch.nn.functional.avg_pool2d, torch.nn.functional.dropout}
KEEP_METHODS = {"relu", "sigmoid", "contiguous", "clone"}
TIE_FUNCS = {operator.add, operator.sub, operator.mul, torch.add, torch.sub, torch.mul}
TIE_METHODS = {"add", "sub", "mul", "add_", "mul_"}


@dataclass(frozen=True)
class Segment:
    root: int
    length: int
    factor: int = 1  # >1 after flatten: each channel owns `factor` consecutive features


@dataclass(frozen=True)
class Use:
    """A module whose parameters are indexed by a channel axis described by ``segments``."""

    module: str
    role: str  # "out" (producer), "in" (consumer input), "bn" (per-channel params), "dw" (depthwise conv)
    segments: tuple[Segment, ...]


@dataclass
class ChannelGroup:
    """Channels that must be pruned together: one union-find class of roots."""

    id: int
    length: int
    producers: list[str] = field(default_factory=list)
    roots: list[int] = field(default_factory=list)
    prunable: bool = True
    reason: str = ""


@dataclass
class Dependencies:
    groups: dict[int, ChannelGroup]
    uses: list[Use]
    root_group: dict[int, int]

    def prunable_groups(self) -> list[ChannelGroup]:
        return [g for g in self.groups.values() if g.prunable]


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def add(self, x: int) -> None:
        self.parent.setdefault(x, x)

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def analyse(model: nn.Module, example: torch.Tensor) -> Dependencies:
    """Trace ``model`` and return its channel groups and parameter uses."""
    gm = torch.fx.symbolic_trace(model)
    ShapeProp(gm).propagate(example)
    modules = dict(gm.named_modules())
    uf = _UnionFind()
    lengths: dict[int, int] = {}
    producer_of: dict[int, str] = {}
    blocked: dict[int, str] = {}
    uses: list[Use] = []
    seg: dict[str, tuple[Segment, ...] | None] = {}

    def new_root(length: int, producer: str) -> tuple[Segment, ...]:
        rid = len(lengths)
        lengths[rid] = length
        producer_of[rid] = producer
        uf.add(rid)
        return (Segment(rid, length),)

    def block(segs, why: str) -> None:
        for s in segs or ():
            blocked.setdefault(s.root, why)

    def arg_segs(a: Any):
        return seg.get(a.name) if isinstance(a, torch.fx.Node) else None

    for node in gm.graph.nodes:
        shape = getattr(node.meta.get("tensor_meta"), "shape", None)
        if node.op == "placeholder":
            seg[node.name] = None
            continue
        if node.op == "output":
            for a in _flat(node.args):
                block(arg_segs(a), "reaches the model output")
            continue
        ins = [arg_segs(a) for a in node.args]
        first = ins[0] if ins else None
        if node.op == "call_module":
            m = modules[node.target]
            if isinstance(m, nn.Conv2d):
                if m.groups == 1:
                    if first is not None:
                        uses.append(Use(node.target, "in", first))
                    seg[node.name] = new_root(m.out_channels, node.target)
                    uses.append(Use(node.target, "out", seg[node.name]))
                elif m.groups == m.in_channels == m.out_channels and first is not None:
                    uses.append(Use(node.target, "dw", first))
                    seg[node.name] = first
                else:
                    block(first, f"grouped conv {node.target}")
                    seg[node.name] = new_root(m.out_channels, node.target)
                    block(seg[node.name], f"grouped conv {node.target}")
                continue
            if isinstance(m, nn.Linear):
                if first is not None and shape is not None and len(shape) == 2:
                    uses.append(Use(node.target, "in", first))
                else:
                    block(first, f"linear {node.target} on a non-2D input")
                seg[node.name] = new_root(m.out_features, node.target)
                uses.append(Use(node.target, "out", seg[node.name]))
                if shape is None or len(shape) != 2:
                    block(seg[node.name], f"linear {node.target} on a non-2D input")
                continue
            if isinstance(m, nn.Flatten):
                seg[node.name] = _flatten(node, first, shape, block)
                continue
            if isinstance(m, KEEP_CHANNELS):
                if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)) and first is not None:
                    uses.append(Use(node.target, "bn", first))
                seg[node.name] = first
                continue
            block(first, f"module {type(m).__name__} ({node.target}) is not understood")
            seg[node.name] = None
            continue
        if node.op == "call_function" or node.op == "call_method":
            target = node.target
            if target in KEEP_FUNCS or (node.op == "call_method" and target in KEEP_METHODS):
                seg[node.name] = first
                continue
            if target in TIE_FUNCS or (node.op == "call_method" and target in TIE_METHODS):
                tensors = [s for s in ins if s is not None]
                if len(tensors) >= 2:
                    a, b = tensors[0], tensors[1]
                    if ([s.length for s in a] == [s.length for s in b]
                            and all(x.factor == y.factor for x, y in zip(a, b))):
                        for x, y in zip(a, b):
                            uf.union(x.root, y.root)
                    else:
                        block(a, "elementwise op with differently segmented operands")
                        block(b, "elementwise op with differently segmented operands")
                seg[node.name] = tensors[0] if tensors else None
                continue
            if target is torch.cat:
                parts, dim = node.args[0], node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else 0)
                part_segs = [arg_segs(p) for p in parts]
                if dim in (1, -3) and all(p is not None for p in part_segs):
                    seg[node.name] = tuple(s for p in part_segs for s in p)
                else:
                    for p in part_segs:
                        block(p, "torch.cat on an axis other than channels")
                    seg[node.name] = None
                continue
            if target in (torch.flatten,) or (node.op == "call_method" and target in ("flatten", "view", "reshape")):
                seg[node.name] = _flatten(node, first, shape, block)
                continue
            for s in ins:
                block(s, f"op {getattr(target, '__name__', target)} is not understood")
            seg[node.name] = None
            continue
        seg[node.name] = None  # get_attr etc.

    groups: dict[int, ChannelGroup] = {}
    root_group: dict[int, int] = {}
    for rid in lengths:
        gid = uf.find(rid)
        root_group[rid] = gid
        g = groups.setdefault(gid, ChannelGroup(id=gid, length=lengths[rid]))
        g.roots.append(rid)
        g.producers.append(producer_of[rid])
        if rid in blocked and g.prunable:
            g.prunable, g.reason = False, blocked[rid]
    return Dependencies(groups=groups, uses=uses, root_group=root_group)


def _flatten(node, first, shape, block):
    """flatten/view/reshape of NCHW to (N, C*H*W): each channel owns H*W consecutive features."""
    src = node.args[0]
    src_shape = getattr(src.meta.get("tensor_meta"), "shape", None) if isinstance(src, torch.fx.Node) else None
    if first is not None and src_shape is not None and len(src_shape) == 4 and shape is not None and len(shape) == 2:
        spatial = int(src_shape[2] * src_shape[3])
        return tuple(Segment(s.root, s.length, s.factor * spatial) for s in first)
    block(first, f"{node.target} that does not flatten NCHW to (N, C*H*W)")
    return None


def _flat(args):
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from _flat(a)
        elif isinstance(a, dict):
            yield from _flat(list(a.values()))
        else:
            yield a
