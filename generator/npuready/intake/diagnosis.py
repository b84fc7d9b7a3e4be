"""Diagnose one float ONNX model for one target: lint, partition verdict, cost hot spots, quant risks.

Lint and partition rest on the ONNX graph structure and the target description (not on NPU silicon);
cycles are simulated by the analytic cost model (``npuready.cost``); the risks read the float weights.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from npuready.graph import Graph, load
from npuready.intake.risks import QuantRisk, quant_risks
from npuready.lint import LintReport
from npuready.targets import Target, load_target  # noqa: F401  (Target: callers' annotations)

TOP_LAYERS = 5


@dataclass(frozen=True)
class HotSpot:
    node: str
    op_type: str
    device: str
    cycles: int
    share: float      # of the model's end-to-end cycles
    bound: str
    utilisation: float
    macs: int

    def to_dict(self) -> dict[str, Any]:
        return {"node": self.node, "op_type": self.op_type, "device": self.device, "cycles": self.cycles,
                "share": round(self.share, 6), "bound": self.bound, "utilisation": round(self.utilisation, 6),
                "macs": self.macs}


@dataclass(frozen=True)
class Diagnosis:
    model: str
    target: str
    inputs: tuple[dict, ...]
    outputs: tuple[dict, ...]
    lint: LintReport
    partition: dict        # verdict, verdict_text, npu_segments, splitters, transfer bytes, missing CPU code
    cost: dict             # totals of the cost report (simulated), or {"error": ...}
    hotspots: tuple[HotSpot, ...]
    risks: tuple[QuantRisk, ...]
    host_layers: tuple[dict, ...] = ()   # layers the cost model places on the CPU, with their cycles
    graph: Graph | None = field(default=None, repr=False, compare=False)

    @property
    def lint_errors(self) -> int:
        return len(self.lint.errors)

    def to_dict(self) -> dict[str, Any]:
        rep = self.lint.to_dict()
        return {
            "model": self.model, "target": self.target, "inputs": list(self.inputs), "outputs": list(self.outputs),
            "lint": {"summary": rep["summary"], "blocked": rep["blocked"], "basis": rep["basis"],
                     "findings": [{k: f[k] for k in ("rule", "severity", "node", "op_type", "message")}
                                  for f in rep["findings"]],
                     "shape_inference_error": rep["shape_inference_error"]},
            "partition": self.partition,
            "cost": {"evidence": "simulated", **self.cost},
            "hotspots": [h.to_dict() for h in self.hotspots],
            "host_layers": list(self.host_layers),
            "risks": [r.to_dict() for r in self.risks],
        }


def _io(infos) -> tuple[dict, ...]:
    return tuple({"name": t.name, "shape": None if t.shape is None else [d if isinstance(d, int) else str(d)
                                                                          for d in t.shape],
                  "dtype": t.dtype} for t in infos)


def _unavailable(why: str) -> dict[str, Any]:
    return {"verdict": "unavailable", "verdict_text": f"partition not planned: {why}", "npu_segments": 0,
            "splitters": [], "segments": [], "transfer_bytes": 0, "missing_cpu_code": [], "cpu_code": []}


def _partition(plan) -> dict[str, Any]:
    d = plan.to_dict()
    tail = [i.to_dict() for i in plan.inventory]
    return {"verdict": d["verdict"], "verdict_text": d["verdict_text"], "npu_segments": d["npu_segments"],
            "splitters": d["splitters"],
            "segments": [{"name": s["name"], "device": s["device"], "nodes": s["nodes"], "macs": s["macs"]}
                         for s in d["segments"]],
            "transfer_bytes": d["transfer_bytes_per_inference"], "missing_cpu_code": d["missing_cpu_code"],
            "cpu_code": tail, "basis": d["basis"]}


def diagnose(model, target: "str | Target", top: int = TOP_LAYERS) -> Diagnosis:
    """Diagnose a model path, ModelProto or Graph. Raises ``InputError`` for unusable input."""
    from npuready.analysis import AnalysisOptions, analyse

    graph = load(model)
    tgt = load_target(target)
    found = analyse(graph, tgt, AnalysisOptions(refusals="record"))
    report = found.lint
    partition = _partition(found.plan) if found.plan is not None else _unavailable(found.refused["partition"])
    hotspots: tuple[HotSpot, ...] = ()
    host: tuple[dict, ...] = ()
    cost = found.cost
    if cost is None:
        totals: dict[str, Any] = {"error": found.refused["cost"]}
    else:
        totals = cost.total()
        total = cost.cycles or 1
        ranked = sorted(cost.layers, key=lambda la: (-la.cycles, la.node))[:top]
        hotspots = tuple(HotSpot(la.node, la.op_type, la.device, int(la.cycles), la.cycles / total, la.bound,
                                 la.utilisation, int(la.macs)) for la in ranked if la.cycles > 0)
        host = tuple({"node": la.node, "op_type": la.op_type, "cycles": int(la.cycles)}
                     for la in cost.layers if la.device == "cpu")
    name = str(graph.path) if graph.path else graph.name
    return Diagnosis(name, tgt.name, _io(graph.inputs), _io(graph.outputs), report, partition,
                     totals, hotspots, tuple(quant_risks(graph, tgt)), host, graph)
