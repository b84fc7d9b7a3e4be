"""The parity ladder: float (onnxruntime) → fake-quant (onnxruntime on QDQ) → integer engine.

For each rung: accuracy (when labels are given) and top-1 agreement. For every int8 tensor of the
integer graph: the code mismatch rate between integer and fake-quant, propagated (integer engine run
end to end) and local (each integer op fed the fake-quant codes of its inputs), the largest code
difference, and the first op whose output differs by more than 1 LSB.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

import numpy as np
import onnx

from npuready.engine.export import export_integer_graph
from npuready.engine.runner import run_op_per_image
from npuready.verify.explain import explain
from npuready.verify.runners import run_fake_quant, run_float


@dataclass(frozen=True)
class TensorParity:
    op: str
    kind: str
    tensor: str
    float_name: str
    rounding: str
    elements: int
    mismatch_propagated: float
    mismatch_local: float | None
    max_abs_propagated: int
    max_abs_local: int | None


@dataclass(frozen=True)
class LadderResult:
    model: str
    images: int
    rounding_profile: str
    engine: str
    accuracy: dict = field(default_factory=dict)        # rung -> accuracy (empty without labels)
    agreement: dict = field(default_factory=dict)       # pair -> top-1 agreement
    tensors: tuple[TensorParity, ...] = ()
    first_divergence: str | None = None                 # op name, > 1 LSB propagated
    explanation: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        d = asdict(self)
        d["tensors"] = [asdict(t) for t in self.tensors]
        d["explanation"] = list(self.explanation)
        return d


def _rate(a: np.ndarray, b: np.ndarray) -> tuple[float, int]:
    d = np.abs(a.astype(np.int16) - b.astype(np.int16).reshape(a.shape))
    return float((d > 0).mean()) if d.size else 0.0, int(d.max(initial=0))


def run_ladder(float_model: onnx.ModelProto, qdq_model: onnx.ModelProto, x: np.ndarray,
               labels: np.ndarray | None = None, rounding: str = "tflite-ref", engine: str = "numpy",
               model_name: str = "model", progress=lambda it, d: it) -> LadderResult:
    from npuready.engine import cpp_engine, numpy_engine

    eng = {"numpy": numpy_engine, "cpp": cpp_engine}[engine]
    graph = export_integer_graph(qdq_model, rounding=rounding)
    f_out = run_float(float_model, x, progress)
    consts = {op.outputs[0]: op.params["value"] for op in graph.ops if op.kind == "Constant"}
    q_out, fq = run_fake_quant(qdq_model, x, [t for t in graph.tensors if t not in consts], progress)
    fq.update(consts)
    ours = eng.run(graph, x)
    i_out = graph.dequantize(graph.outputs[0], ours[graph.outputs[0]]).reshape(len(x), -1)
    top = {"float": f_out.reshape(len(x), -1).argmax(1), "fake_quant": q_out.reshape(len(x), -1).argmax(1),
           "integer": i_out.argmax(1)}
    accuracy = {k: float((v == labels).mean()) for k, v in top.items()} if labels is not None else {}
    agreement = {"fake_quant_vs_float": float((top["fake_quant"] == top["float"]).mean()),
                 "integer_vs_float": float((top["integer"] == top["float"]).mean()),
                 "integer_vs_fake_quant": float((top["integer"] == top["fake_quant"]).mean())}
    rows, first = [], None
    for op in graph.ops:
        if op.kind == "Constant":
            continue
        out = op.outputs[0]
        prop, max_p = _rate(ours[out], fq[out])
        local = max_l = None
        if op.kind != "Quantize":
            mine = run_op_per_image(graph, eng.run_op, op, [np.ascontiguousarray(fq[i]) for i in op.inputs],
                                    len(x), consts)
            local, max_l = _rate(mine, fq[out])
        rows.append(TensorParity(op.name, op.kind, out, graph.tensors[out].float_name, op.rounding,
                                 int(ours[out].size), prop, local, max_p, max_l))
        if first is None and max_p > 1:
            first = op.name
    result = LadderResult(model_name, int(len(x)), graph.rounding, engine, accuracy, agreement, tuple(rows), first)
    return replace(result, explanation=tuple(explain(result)))
