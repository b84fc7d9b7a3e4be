"""Which nodes the cost model puts on the NPU and which tensors cross to the host.

Uses the placement of H2's partition planner (``npuready.partition.plan_partition``) when it is
importable, so cost and partition agree on which node runs where; the boundary tensors are then the
tensors whose producer and consumer sit on different devices. Otherwise (planner not installed yet) a simple stand-in: a node runs on the NPU when
``target.runs_on_npu(op_type)`` and its shapes are static; constants fold; a tensor crosses whenever
its producer and a consumer sit on different devices (graph inputs/outputs are host memory only when a
CPU node touches them).

One deliberate exception: a node that the target's compiler lowers (``npuready.cost.lowering``, e.g.
LayerNormalization on the Vela mirrors) is placed on the NPU even when the partition policy keeps it on
the host (lint R006), because that compiler runs the lowered sequence on the NPU; the crossings follow.
"""
from __future__ import annotations

from dataclasses import dataclass

from npuready.graph import Graph
from npuready.targets import Target

NPU, CPU, FOLDED = "npu", "cpu", "folded"


@dataclass(frozen=True)
class Placed:
    devices: dict[str, str]  # node name -> npu | cpu | folded
    crossings: tuple[tuple[str, str], ...]  # (tensor, "cpu→npu" | "npu→cpu")
    source: str


def place_nodes(graph: Graph, target: Target) -> Placed:
    try:
        from npuready.partition import plan_partition
    except ImportError:
        return _simple(graph, target)
    plan = plan_partition(graph, target)
    devices = {p.node: p.device for p in plan.placements}
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


def _simple(graph: Graph, target: Target) -> Placed:
    from npuready.cost.workload import _is_const

    devices: dict[str, str] = {}
    for node in graph.nodes:
        real = [i for i in node.inputs if i]
        if node.op_type == "Constant" or (real and all(_is_const(graph, i) for i in real)):
            devices[node.name] = FOLDED
        elif not node.is_standard or node.subgraphs or not target.runs_on_npu(node.op_type):
            devices[node.name] = CPU
        elif not all(graph.info(o).is_static for o in node.outputs if o):
            devices[node.name] = CPU
        else:
            devices[node.name] = NPU
    return Placed(devices, _crossings(graph, devices), "npuready.cost.placement (simple: partition planner unavailable)")


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
