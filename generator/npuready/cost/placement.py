"""Which nodes the cost model puts on the NPU and which tensors cross to the host.

The placement is the partition planner's: the one ``npuready.partition.placement.place`` decided in the
lint run (``npuready.lint.api.run_lint``), handed over by ``npuready.analysis`` (a partition plan's
placements, or the lint run's) or, standalone, from a lint run of its own; under the same edges policy,
so cost and partition agree on which node runs where. The boundary tensors are then the tensors whose
producer and consumer sit on different devices.

There is no exception for compiler lowerings: a target that lowers an op (LayerNormalization on the
Vela mirrors, ``npuready.cost.lowering``) declares it in its ``[norms]`` table, so the severity policy
(``npuready.lint.policy``) and the planner already place it on the NPU; the cost model then prices the
lowered sequence.
"""
from __future__ import annotations

from dataclasses import dataclass

from typing import TYPE_CHECKING, Mapping

from npuready.graph import Graph
from npuready.partition.placement import CPU, FOLDED, NPU, Placement, with_edges  # noqa: F401  (CPU re-exported for cost.model)
from npuready.targets import Target

if TYPE_CHECKING:
    from npuready.partition.plan import PartitionPlan


@dataclass(frozen=True)
class Placed:
    devices: dict[str, str]  # node name -> npu | cpu | folded
    crossings: tuple[tuple[str, str], ...]  # (tensor, "cpu→npu" | "npu→cpu")
    source: str


def place_nodes(graph: Graph, target: Target, edges: str = "npu",
                placements: "Mapping[str, Placement] | PartitionPlan | None" = None) -> Placed:
    """Devices and crossings from ``placements`` (a partition plan, whose edges policy it already applied,
    or a lint run's placement under the "npu" policy, put under ``edges`` here); without one, a lint run
    decides the placement."""
    if placements is None:
        from npuready.lint.api import run_lint

        placements = run_lint(graph, target).placements
    if isinstance(placements, Mapping):
        decided = with_edges(graph, placements, edges)
    else:
        decided = {p.node: p for p in placements.placements}
    devices = {name: p.device for name, p in decided.items()}
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
