"""What keeping layers float costs on a target, from the project's own partition planner and cost model.

No target declares a float or int16 precision for its NPU (``Target.precisions``, when a target gains one,
would keep the layer on the NPU), so a float layer — with the Relu/Clip that follows it — runs on the CPU:
the placement of the all-INT8 analysis (``analysis.analyse``) with those nodes moved to the CPU is planned
(``partition.plan.build_plan``) and costed (``cost.model.estimate``) exactly as ``partition``/``cost`` do,
and the result is the delta against the all-INT8 plan: end-to-end cycles (NPU cycles plus host and transfer
time at the NPU clock), CPU↔NPU bytes (int8, one byte per element, as ``npuready cost`` counts) and segments.
Simulated.
"""
from __future__ import annotations

from dataclasses import dataclass

from npuready.graph import Graph, load
from npuready.sensitivity.table import LayerCost

_CLAMPS = {"Relu", "Clip"}
REASON = "cpu: kept float (the target declares no float/int16 precision)"


@dataclass(frozen=True)
class PlanCost:
    target: str
    cycles: int
    transfer_bytes: int
    segments: int
    cpu_nodes: tuple[str, ...]


def _with_followers(graph: Graph, names) -> list[str]:
    """``names`` and the single-consumer Relu/Clip chain after each (the float layer's activation)."""
    out = []
    for name in names:
        out.append(name)
        node = next((n for n in graph.nodes if n.name == name), None)
        while node is not None:
            users = graph.consumers.get(node.outputs[0], ())
            node = users[0] if len(users) == 1 and users[0].op_type in _CLAMPS else None
            if node is not None:
                out.append(node.name)
    return out


class KeepFloatCost:
    """The all-INT8 analysis of ``float_model`` on ``target`` once; ``of(names)`` prices a kept-float set."""

    def __init__(self, float_model, target: str):
        from npuready.analysis.analyse import AnalysisOptions, analyse

        self.graph = load(float_model)
        self.analysis = analyse(self.graph, target, AnalysisOptions())
        self.target = self.analysis.target
        self.base = self._cost(dict(self.analysis.placements), ())

    def _cost(self, placements, moved) -> PlanCost:
        from npuready.cost.model import estimate
        from npuready.partition.plan import build_plan

        plan = build_plan(self.graph, self.target, placements, "npu", self.analysis.plan.graph_errors)
        cost = estimate(self.graph, self.target, "npu", placement=plan)
        return PlanCost(self.target.name, int(cost.cycles), int(plan.transfer_elements), len(plan.segments),
                        tuple(moved))

    def of(self, names) -> PlanCost:
        from npuready.partition.placement import CPU, NPU, Placement

        placements = dict(self.analysis.placements)
        moved = []
        for n in _with_followers(self.graph, names):
            p = placements.get(n)
            if p is not None and p.device == NPU:
                placements[n] = Placement(p.node, p.op_type, CPU, REASON)
                moved.append(n)
        return self._cost(placements, moved) if moved else PlanCost(self.base.target, self.base.cycles,
                                                                    self.base.transfer_bytes, self.base.segments, ())

    def delta(self, names) -> LayerCost:
        c = self.of(names)
        return LayerCost(self.base.target, c.cycles - self.base.cycles, c.transfer_bytes - self.base.transfer_bytes,
                         c.segments - self.base.segments, "cpu")


def layer_costs(float_model, names, targets) -> dict[str, tuple[LayerCost, ...]]:
    """name → one ``LayerCost`` per target for keeping that layer alone float."""
    pricers = [KeepFloatCost(float_model, t) for t in targets]
    return {n: tuple(p.delta([n]) for p in pricers) for n in names}
