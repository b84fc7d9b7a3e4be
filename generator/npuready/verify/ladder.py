"""The parity ladder: float (onnxruntime) → fake-quant (onnxruntime on QDQ) → integer engine.

For each rung: accuracy (when labels are given), top-1 agreement, and the task metric (``verify.tasks``:
classification, dense, sequence, detection or regression; declared or inferred from the output shapes)
over all of the model's outputs. For every int8 tensor of the
integer graph: the code mismatch rate between integer and fake-quant, propagated (integer engine run
end to end) and local (each integer op fed the fake-quant codes of its inputs), the largest code
difference, and the first op whose output differs by more than 1 LSB. Per quantised activation: how far
the QDQ file as stored departs from float (``verify.drift``), which names the tensor a broken scale,
zero point or weight breaks.

A rung that cannot run is recorded, not raised: ``refused[rung]`` holds why (the integer export refuses
stored scales it cannot use, ``QuantParamError``, or a QDQ structure it cannot build; onnxruntime refuses
a malformed QDQ file) and the gate fails on it. An unknown rounding still raises ``InputError`` (a usage error).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

import numpy as np
import onnx

from npuready.engine.export import export_integer_graph
from npuready.engine.runner import run_op_per_image
from npuready.errors import InputError
from npuready.verify.drift import TensorDrift, first_gross, measure_drift, quantised_activations
from npuready.verify.explain import explain
from npuready.verify.margins import MarginStats, margin_stats
from npuready.verify.runners import run_fake_quant, run_float
from npuready.verify.tasks.metric import TaskChoice


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
    refused: dict = field(default_factory=dict)         # rung -> why it could not run (fake_quant, integer)
    drift: tuple[TensorDrift, ...] = ()                 # fake-quant vs float per quantised activation
    margins: MarginStats | None = None                  # float logit margins vs integer flips (classifiers)
    task: TaskChoice | None = None                      # the task metric used and why (declared or inferred)
    task_scores: dict = field(default_factory=dict)     # pair -> TaskScore (same pairs as ``agreement``)
    kept_float: tuple[str, ...] = ()                    # nodes a mixed build keeps in float (quant.keep_float)

    @property
    def task_name(self) -> str:
        return self.task.name if self.task is not None else "classification"

    @property
    def first_gross(self) -> TensorDrift | None:
        return first_gross(self.drift)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["tensors"] = [asdict(t) for t in self.tensors]
        d["drift"] = [{**asdict(t), "gross": t.gross} for t in self.drift]
        d["explanation"] = list(self.explanation)
        d["margins"] = self.margins.to_dict() if self.margins is not None else None
        d["task"] = self.task.to_dict() if self.task is not None else None
        d["task_scores"] = {k: v.to_dict() for k, v in self.task_scores.items()}
        return d


def _rate(a: np.ndarray, b: np.ndarray) -> tuple[float, int]:
    d = np.abs(a.astype(np.int16) - b.astype(np.int16).reshape(a.shape))
    return float((d > 0).mean()) if d.size else 0.0, int(d.max(initial=0))


def _export(qdq_model, rounding: str):
    """The integer graph, or None and why the QDQ model as stored cannot be built as integers."""
    from npuready.engine import fixedpoint

    if rounding not in {*fixedpoint.ROUNDING_PROFILES, *fixedpoint.ROUNDINGS}:
        export_integer_graph(qdq_model, rounding=rounding)  # raises the usage error (exit 2)
    try:
        return export_integer_graph(qdq_model, rounding=rounding), None
    except InputError as exc:  # QuantParamError (a stored scale/zero point) or an unbuildable QDQ structure
        return None, str(exc)


def _fake_quant(qdq_model, x, names, progress):
    from onnxruntime.capi.onnxruntime_pybind11_state import Fail, InvalidArgument, InvalidGraph, RuntimeException

    try:
        return (*run_fake_quant(qdq_model, x, names, progress), None)
    except (Fail, InvalidArgument, InvalidGraph, RuntimeException) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return None, {}, f"onnxruntime cannot run the QDQ model as stored: {first}"


def run_ladder(float_model: onnx.ModelProto, qdq_model: onnx.ModelProto, x: np.ndarray,
               labels: np.ndarray | None = None, rounding: str = "tflite-ref", engine: str = "numpy",
               model_name: str = "model", progress=lambda it, d: it, task: str | None = None) -> LadderResult:
    """``task``: a ``verify.tasks`` name, or None to infer it from the float model's output shapes."""
    from npuready.engine import cpp_engine, numpy_engine
    from npuready.quant.keep_float import kept_float
    from npuready.verify.tasks.infer import choose
    from npuready.verify.tasks.registry import get

    eng = {"numpy": numpy_engine, "cpp": cpp_engine}[engine]
    graph, refused_int = _export(qdq_model, rounding)
    pairs = quantised_activations(qdq_model, float_model)
    f_names = [o.name for o in float_model.graph.output]
    q_names = [o.name for o in qdq_model.graph.output]
    f_out, f_vals = run_float(float_model, x, progress, [*(name for _, name in pairs), *f_names])
    codes = [n.output[0] for n in qdq_model.graph.node if n.op_type == "QuantizeLinear"]
    q_out, fq, refused_fq = _fake_quant(qdq_model, x, [*codes, *q_names], progress)
    refused = {k: v for k, v in (("fake_quant", refused_fq), ("integer", refused_int)) if v}
    drift = measure_drift(qdq_model, pairs, fq, f_vals) if q_out is not None else ()
    n = len(x)
    top = {"float": f_out.reshape(n, -1).argmax(1)}
    if q_out is not None:
        top["fake_quant"] = q_out.reshape(n, -1).argmax(1)
    rows, first, ours = [], None, None
    outs = {"float": tuple(f_vals[k] for k in f_names)}
    if q_out is not None:
        outs["fake_quant"] = tuple(fq[k] for k in q_names)
    if graph is not None:
        ours = eng.run(graph, x)
        top["integer"] = graph.dequantize(graph.outputs[0], ours[graph.outputs[0]]).reshape(n, -1).argmax(1)
        outs["integer"] = _integer_outputs(graph, ours, q_names)
    accuracy = {k: float((v == labels).mean()) for k, v in top.items()} if labels is not None else {}
    agreement = {f"{a}_vs_{b}": float((top[a] == top[b]).mean())
                 for a, b in (("fake_quant", "float"), ("integer", "float"), ("integer", "fake_quant"))
                 if a in top and b in top}
    if graph is not None and q_out is not None:
        rows, first = _tensor_parity(graph, eng, ours, fq, x)
    choice = choose(task, [(1, *v.shape[1:]) for v in outs["float"]], f_names,
                    tuple(x.shape[-2:]) if x.ndim == 4 else None)
    metric = get(choice.name)
    task_scores = {f"{a}_vs_{b}": metric.score(outs[b], outs[a], choice.options)
                   for a, b in (("fake_quant", "float"), ("integer", "float"), ("integer", "fake_quant"))
                   if a in outs and b in outs}
    margins = None
    if graph is not None and choice.name == "classification" and f_out.reshape(n, -1).shape[1] > 1:
        out = graph.outputs[0]
        margins = margin_stats(f_out, graph.dequantize(out, ours[out]), graph.tensors[out].scale)
    result = LadderResult(model_name, int(n), graph.rounding if graph is not None else rounding, engine, accuracy,
                          agreement, tuple(rows), first, refused=refused, drift=drift, margins=margins,
                          task=choice, task_scores=task_scores, kept_float=tuple(kept_float(qdq_model)))
    return replace(result, explanation=tuple(explain(result)))


def _integer_outputs(graph, ours, names) -> tuple:
    """The integer graph's outputs dequantised, in the QDQ model's output order (matched by float name)."""
    by_float = {graph.tensors[o].float_name: o for o in graph.outputs}
    order = [by_float[k] for k in names if k in by_float]
    order += [o for o in graph.outputs if o not in order]
    return tuple(graph.dequantize(o, ours[o]) for o in order)


def _tensor_parity(graph, eng, ours, fq, x):
    consts = {op.outputs[0]: op.params["value"] for op in graph.ops if op.kind == "Constant"}
    fq = {**fq, **consts}
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
    return rows, first
