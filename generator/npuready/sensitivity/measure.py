"""``measure_sensitivity(float_model, qdq, x)``: the sensitivity table of a QDQ model on inputs ``x``.

The QDQ model is built once (``npuready quantize``'s path); every variant (``sensitivity.variants``) is one
onnxruntime session over ``x``, scored with the gate's task metric (``verify.tasks``, declared with ``task``
or inferred from the float outputs) against the float model's outputs.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import onnx

from npuready.quant.keep_float import quantised_layers
from npuready.sensitivity.run import outputs, sqnr_db
from npuready.sensitivity.table import LayerRow, SensitivityTable, ranked
from npuready.sensitivity.variants import variant

CHUNK = 250  # images per integer-engine run in Scorer.score_integer


class Scorer:
    """The task metric of a candidate model's outputs against the float model's, on fixed inputs."""

    def __init__(self, float_model: onnx.ModelProto, x: np.ndarray, task: str | None = None):
        from npuready.verify.tasks.infer import choose
        from npuready.verify.tasks.registry import get

        self.x = x
        self.reference = outputs(float_model, x)
        names = [o.name for o in float_model.graph.output]
        self.choice = choose(task, [(1, *v.shape[1:]) for v in self.reference], names,
                             tuple(x.shape[-2:]) if x.ndim == 4 else None)
        self.metric = get(self.choice.name)

    def score(self, model: onnx.ModelProto) -> float:
        """The metric of ``model`` run as fake-quant (onnxruntime)."""
        return float(self.metric.score(self.reference, outputs(model, self.x), self.choice.options).value)

    def score_integer(self, model: onnx.ModelProto, engine: str = "cpp", rounding: str = "tflite-ref") -> float:
        """The metric of ``model`` exported and run on the integer engine (kept-float layers in float)."""
        from npuready.engine import cpp_engine, numpy_engine
        from npuready.engine.export import export_integer_graph

        from npuready.engine.ops import float_island

        graph = export_integer_graph(model, rounding=rounding)
        run = {"numpy": numpy_engine, "cpp": cpp_engine}[engine].run
        by_float = {graph.tensors[o].float_name: o for o in graph.outputs}
        order = [by_float.get(o.name, None) for o in model.graph.output]
        order = [o for o in order if o is not None] + [o for o in graph.outputs if o not in order]
        parts = []
        try:
            for i in range(0, len(self.x), CHUNK):  # images are independent: chunks bound the engine's buffers
                codes = run(graph, self.x[i:i + CHUNK], keep=False)
                parts.append(tuple(graph.dequantize(o, codes[o]) for o in order))
        finally:
            # the engine keeps one onnxruntime session per float island; a search builds hundreds of islands,
            # each session holding buffers for a chunk of images (a 1,000-image search ran out of 24 GiB)
            float_island.release_sessions()
        got = tuple(np.concatenate([p[k] for p in parts]) for k in range(len(order)))
        return float(self.metric.score(self.reference, got, self.choice.options).value)


def measure_sensitivity(float_model: onnx.ModelProto, qdq: onnx.ModelProto, x: np.ndarray,
                        task: str | None = None, progress=lambda it, d: it, model_name: str = "model",
                        scorer: Scorer | None = None, unrounded: bool = True) -> SensitivityTable:
    """``unrounded``: also measure each layer's output left unrounded (``metric_output``; else it is the INT8
    metric)."""
    scorer = scorer or Scorer(float_model, x, task)
    base = scorer.score(qdq)
    layers = quantised_layers(qdq)
    float_tensors = {n for node in float_model.graph.node for n in node.output}
    dq_of = {n.input[0]: n.output[0] for n in qdq.graph.node if n.op_type == "DequantizeLinear"}
    q_out = {n.name: n.output[0] for n in qdq.graph.node if n.op_type == "QuantizeLinear"}
    pairs = {_float_name(layer.output): dq_of[q_out[layer.quantize]] for layer in layers
             if _float_name(layer.output) in float_tensors and q_out.get(layer.quantize) in dq_of}
    sqnr = sqnr_db(float_model, qdq, pairs, x) if pairs else {}
    rows = []
    for layer in progress(layers, "sensitivity"):
        mf = scorer.score(variant(qdq, float_model, layer, "float"))
        mo = scorer.score(variant(qdq, float_model, layer, "output")) if layer.quantize and unrounded else base
        rows.append(LayerRow(layer.name, layer.op_type, mf, mo, mf - base, mo - base,
                             sqnr.get(_float_name(layer.output))))
    return SensitivityTable(model_name, scorer.choice.name, scorer.metric.metric, int(len(x)), base, ranked(rows))


def _float_name(tensor: str | None) -> str | None:
    """The float tensor a QuantizeLinear input stands for (the quantiser renames a graph output's producer)."""
    return tensor.removesuffix("_QuantizeLinear_Input") if tensor else tensor


def with_costs(table: SensitivityTable, costs: dict) -> SensitivityTable:
    """``table`` with each row's per-target costs (``sensitivity.cost.layer_costs``: name → LayerCost tuple)."""
    return replace(table, rows=tuple(replace(r, costs=tuple(costs.get(r.name, ()))) for r in table.rows))
