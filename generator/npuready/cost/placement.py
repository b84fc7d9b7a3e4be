"""Which nodes the cost model puts on the NPU and which tensors cross to the host.

The placement is the partition planner's (``npuready.partition.placement.place`` with the lint ERRORs
of ``npuready.partition.plan.lint_findings``, the same edges policy), so cost and partition agree on
which node runs where; the boundary tensors are then the tensors whose producer and consumer sit on
different devices.

There is no exception for compiler lowerings: a target that lowers an op (LayerNormalization on the
Vela mirrors, ``npuready.cost.lowering``) declares it in its ``[norms]`` table, so the severity policy
(``npuready.lint.policy``) and the planner already place it on the NPU; the cost model then prices the
lowered sequence.
"""
from __future__ import annotations

from dataclasses import dataclass

from npuready.graph import Graph
from npuready.partition.placement import CPU, FOLDED, NPU, place  # noqa: F401  (CPU re-exported for cost.model)
from npuready.partition.plan import lint_findings
from npuready.targets import Target


@dataclass(frozen=True)
class Placed:
    devices: dict[str, str]  # node name -> npu | cpu | folded
    crossings: tuple[tuple[str, str], ...]  # (tensor, "cpu→npu" | "npu→cpu")
    source: str


def place_nodes(graph: Graph, target: Target, edges: str = "npu") -> Placed:
    lint_errors, _ = lint_findings(graph, target)
    devices = {name: p.device for name, p in place(graph, target, lint_errors, edges).items()}
    return Placed(devices, _crossings(graph, devices), "npuready.partition")


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
