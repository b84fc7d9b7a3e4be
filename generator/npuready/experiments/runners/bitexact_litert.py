"""Experiment `bitexact-litert`: our integer engines vs LiteRT's reference kernels, every tensor, every image.

Per zoo model: the QDQ model (our minmax PTQ) is exported to an integer graph (rounding profile
``tflite-ref``) and to INT8 TFLite with the same scales (``npuready.tflite``); both run on the same
int8 input codes of the Fashion-MNIST test subset. Every int8 tensor is compared per op, propagated
(end to end) and local (our op fed LiteRT's inputs). The C++ twin is compared with the NumPy engine
on every tensor, and LiteRT's optimised kernels with its reference kernels (end to end, and locally
against our ops under the declared profile and under single rounding). Unit of work: one model.
"""
from __future__ import annotations

from collections import defaultdict


from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def _cpp_vs_numpy(graph, x, chunk: int = 100, outputs: list | None = None) -> dict:
    """NumPy vs C++ engine on every tensor of every image; ``outputs`` (a list) collects the NumPy engine's
    codes of the first graph output, chunk by chunk."""
    from npuready.engine import cpp_engine, numpy_engine

    compared = mismatched = elements = 0
    for s in range(0, len(x), chunk):
        a, b = numpy_engine.run(graph, x[s:s + chunk]), cpp_engine.run(graph, x[s:s + chunk])
        for name in a:
            d = (a[name] != b[name]).reshape(len(a[name]), -1)
            compared += d.shape[0]
            mismatched += int(d.any(axis=1).sum())
            elements += int(d.sum())
        if outputs is not None:
            outputs.append(a[graph.outputs[0]])
    return {"tensors_compared": compared, "tensors_mismatched": mismatched, "elements_mismatched": elements}


DEFAULT_KERNELS = "xnnpack"


def _flat(row: dict) -> dict:
    """One per-op row with the optimised kernel sets' counts as flat columns (<set>_<count>)."""
    out = {k: v for k, v in row.items() if k != "optimized"}
    for kernels, counts in row.get("optimized", {}).items():
        for key, value in counts.items():
            out[f"{kernels}_{key}"] = value
    return out


def tasks(ctx: RunContext) -> list[Task]:
    """One task per zoo model."""
    return [Task(name, {"model": name}) for name in ctx.params["models"]]


def run_task(ctx: RunContext, args: dict) -> dict:
    from importlib.metadata import version

    from npuready.engine.export import export_integer_graph
    from npuready.quant.inputs import load_inputs
    from npuready.quant.zoo_qdq import quantize_zoo, zoo_path
    from npuready.verify.litert_oracle import compare_with_litert

    p = ctx.params
    for dist in ("ai-edge-litert", "onnxruntime", "onnx", "numpy"):
        ctx.tool(dist, version(dist))
    ctx.seed("calibration", p.get("seed", 0))
    data = load_inputs("fashion-mnist:test", p["images"])
    name = args["model"]
    ctx.input(zoo_path(name))
    fm, qdq = quantize_zoo(name, p.get("method", "minmax"), p["calibration_images"], p.get("seed", 0))
    graph = export_integer_graph(qdq, rounding=p.get("rounding", "tflite-ref"))
    report = compare_with_litert(qdq, data.x, graph, optimized=True, model_name=name, progress=ctx.progress)
    s = report.summary()
    per_op = [_flat(row) for row in s["ops"]]
    by_kind: dict = defaultdict(lambda: defaultdict(int))
    for row in per_op:
        k = by_kind[row["kind"]]
        k["ops"] += 1
        for key, value in row.items():
            if key.endswith("max_abs"):
                k[key] = max(k[key], value)
            elif isinstance(value, int) and not isinstance(value, bool) and key not in ("ops",):
                k[key] += value
    default = s["optimized"].get(DEFAULT_KERNELS, {})
    return {
        "evidence": "measured",
        "images": s["images"], "tensors_compared": s["tensors_compared"],
        "tensors_mismatched": s["tensors_mismatched"], "elements_compared": s["elements_compared"],
        "elements_mismatched_propagated": s["elements_mismatched_propagated"],
        "elements_mismatched_local": s["elements_mismatched_local"],
        "rounding_profile": graph.rounding, "roundings_by_kind": {op.kind: op.rounding for op in graph.ops},
        "per_op": per_op, "per_kind": {k: dict(v) for k, v in by_kind.items()},
        "optimized_vs_reference": {
            "elements_mismatched": default.get("elements_mismatched_vs_reference"),
            "max_abs": default.get("max_abs_vs_reference"),
            "kernel_sets": s["optimized"],
            "note": f"LiteRT's optimised kernels vs its BUILTIN_REF kernels on the same int8 input, end to end "
                    f"(top-level numbers: {DEFAULT_KERNELS} = the default AUTO resolver with the XNNPACK "
                    "delegate; kernel_sets also has builtin = optimised builtin kernels without delegates), and "
                    "locally: our ops fed each kernel set's own inputs under the declared rounding profile and "
                    "under single rounding everywhere"},
        "cpp_vs_numpy": _cpp_vs_numpy(graph, data.x),
    }


def merge(ctx: RunContext, outputs: dict) -> dict:
    return dict(outputs)
