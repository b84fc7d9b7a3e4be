"""Experiment `bitexact-litert`: our integer engines vs LiteRT's reference kernels, every tensor, every image.

Per zoo model: the QDQ model (our minmax PTQ) is exported to an integer graph (rounding profile
``tflite-ref``) and to INT8 TFLite with the same scales (``npuready.tflite``); both run on the same
int8 input codes of the Fashion-MNIST test subset. Every int8 tensor is compared per op, propagated
(end to end) and local (our op fed LiteRT's inputs). The C++ twin is compared with the NumPy engine
on every tensor, and LiteRT's optimised kernels with its reference kernels (end to end, and locally
against our ops under the declared profile and under single rounding).
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from npuready.experiments.context import RunContext


def _cpp_vs_numpy(graph, x, chunk: int = 100) -> dict:
    from npuready.engine import cpp_engine, numpy_engine

    compared = mismatched = elements = 0
    for s in range(0, len(x), chunk):
        a, b = numpy_engine.run(graph, x[s:s + chunk]), cpp_engine.run(graph, x[s:s + chunk])
        for name in a:
            d = (a[name] != b[name]).reshape(len(a[name]), -1)
            compared += d.shape[0]
            mismatched += int(d.any(axis=1).sum())
            elements += int(d.sum())
    return {"tensors_compared": compared, "tensors_mismatched": mismatched, "elements_mismatched": elements}


def run(ctx: RunContext) -> dict:
    from importlib.metadata import version

    from npuready.engine.export import export_integer_graph
    from npuready.quant.inputs import load_inputs
    from npuready.quant.zoo_qdq import quantize_zoo, zoo_path
    from npuready.verify.litert_oracle import compare_with_litert

    p = ctx.params
    for dist in ("ai-edge-litert", "onnxruntime", "onnx", "numpy"):
        ctx.tool(dist, version(dist))
    ctx.seed("calibration", p.get("seed", 0))
    results: dict = {}
    for name in p["models"]:
        ctx.input(zoo_path(name))
        fm, qdq = quantize_zoo(name, p.get("method", "minmax"), p["calibration_images"], p.get("seed", 0))
        graph = export_integer_graph(qdq, rounding=p.get("rounding", "tflite-ref"))
        data = load_inputs("fashion-mnist:test", p["images"])
        report = compare_with_litert(qdq, data.x, graph, optimized=True, model_name=name, progress=ctx.progress)
        s = report.summary()
        by_kind: dict = defaultdict(lambda: {"ops": 0, "elements": 0, "mismatched_local": 0,
                                             "mismatched_propagated": 0, "optimized": {}})
        for row in s["ops"]:
            k = by_kind[row["kind"]]
            k["ops"] += 1
            for key in ("elements", "mismatched_local", "mismatched_propagated"):
                k[key] += row[key]
            for kernels, c in row["optimized"].items():
                agg = k["optimized"].setdefault(kernels, {"mismatched": 0, "max_abs": 0, "local_declared": 0,
                                                       "local_single": 0})
                for key in ("mismatched", "local_declared", "local_single"):
                    agg[key] += c[key]
                agg["max_abs"] = max(agg["max_abs"], c["max_abs"])
        results[name] = {
            "evidence": "measured",
            "images": s["images"], "tensors_compared": s["tensors_compared"],
            "tensors_mismatched": s["tensors_mismatched"], "elements_compared": s["elements_compared"],
            "elements_mismatched_propagated": s["elements_mismatched_propagated"],
            "elements_mismatched_local": s["elements_mismatched_local"],
            "rounding_profile": graph.rounding, "roundings_by_kind": {op.kind: op.rounding for op in graph.ops},
            "per_op": s["ops"], "per_kind": dict(by_kind),
            "optimized_vs_reference": {
                **s["optimized"],
                "note": "LiteRT's optimised kernels (xnnpack = default AUTO resolver with the XNNPACK delegate; "
                        "builtin = builtin optimised kernels without delegates) vs its BUILTIN_REF kernels on the "
                        "same int8 input (end to end), and our ops fed each kernel set's own inputs under the "
                        "declared profile and under single rounding everywhere (local)"},
            "cpp_vs_numpy": _cpp_vs_numpy(graph, data.x),
        }
    return results
