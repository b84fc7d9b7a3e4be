"""Which nodes the cost model puts on the NPU and which tensors cross to the host.

The placement is the partition planner's (``npuready.partition.placement.place`` with the lint ERRORs
of ``npuready.partition.plan.lint_findings``, default edges policy), so cost and partition agree on
which node runs where; the boundary tensors are then the tensors whose producer and consumer sit on
different devices.

One deliberate exception: a node that the target's compiler lowers (``npuready.cost.lowering``, e.g.
LayerNormalization on the Vela mirrors) is placed on the NPU even when the partition policy keeps it on
the host (lint R006), because that compiler runs the lowered sequence on the NPU; the crossings follow.
"""
from __future__ import annotations

from dataclasses import dataclass

from npuready.graph import Graph
from npuready.partition.placement import CPU, FOLDED, NPU, place
from npuready.partition.plan import lint_findings
from npuready.targets import Target


@dataclass(frozen=True)
class Placed:
    devices: dict[str, str]  # node name -> npu | cpu | folded
    crossings: tuple[tuple[str, str], ...]  # (tensor, "cpu→npu" | "npu→cpu")
    source: str


def place_nodes(graph: Graph, target: Target) -> Placed:
    lint_errors, _ = lint_findings(graph, target)
    devices = {name: p.device for name, p in place(graph, target, lint_errors).items()}
    lowered = _lowered_to_npu(graph, target, devices)
    source = "npuready.partition"
    if lowered:
        source += f" (+ {lowered} node(s) the target's compiler lowers onto the NPU)"
    return Placed(devices, _crossings(graph, devices), source)


def _lowered_to_npu(graph: Graph, target: Target, devices: dict[str, str]) -> int:
    """Move host-placed nodes that ``target``'s lowering covers (static shapes) to the NPU; return how many."""
    from npuready.cost.lowering import lower

    moved = 0
    for node in graph.nodes:
        if devices.get(node.name) == CPU and all(graph.info(o).is_static for o in node.outputs if o) \
                and lower(graph, node, target) is not None:
            devices[node.name] = NPU
            moved += 1
    return moved


def _crossings(graph: Graph, devices: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """Tensors whose producer and a consumer run on different devices (once per tensor and direction)."""
    crossings = []
    seen: set[tuple[str, str]] = set()
    for node in graph.nodes:
        dev = devices.get(node.name, NPU)
        if dev == FOLDED:
            continue
        for i in node.inputs:
            p = graph.producers.get(i) if i else None
            if p is None or devices.get(p.name, NPU) in (FOLDED, dev):
                continue
            key = (i, "cpu→npu" if dev == NPU else "npu→cpu")
            if key not in seen:
                seen.add(key)
                crossings.append(key)
    return tuple(crossings)
