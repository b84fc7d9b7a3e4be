"""Experiment `bitexact-realworld`: library-defined architectures through quantize → integer export → NumPy
engine, C++ engine and LiteRT BUILTIN_REF, every int8 tensor of every image compared.

[params] ``models``: a list of tables, one per architecture —
``{name, source = "library", preset, body_target?}`` for an architecture built by timm / torchvision /
ultralytics (random-initialised weights), exported at ``image_size`` and fed seeded crops of the sample
photos through the preprocessing ``preset`` (``body_target``: keep only the first NPU body the partition
planner cuts for that target, e.g. YOLOv8n without its CPU tail); ``{name, source = "zoo"}`` for a trained
zoo checkpoint (``zoo/<name>.onnx``) fed Fashion-MNIST through its own input contract (a zoo model not
yet in the repository is recorded as ``pending``, not run). ``images``, ``calibration_images``,
``method``, ``rounding``, ``seed``.

LayerNormalization is decomposed before calibration (``quant.decompose_layernorm``: the int8 op sequence a
converter emits), so a ViT's norms run on the integer engine and on LiteRT. Per model: tensors compared and
mismatched (our engine vs LiteRT, end to end and op-local), NumPy ⇄ C++ per tensor, top-1 agreement and
the float logit-margin statistics (``verify.margins``) of classifiers, wall time per stage. With
``vela_targets``, the same INT8 model written as TFLite (``npuready.tflite``, what ``npuready export`` ships) is
compiled by Arm Vela for each Ethos-U mirror: whether it compiles, Vela's cycle estimate and the operators it
left to the CPU (read from its optimised model, ``cost.vela_placement``). Unit of work: one model.
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np
import onnx

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def tasks(ctx: RunContext) -> list[Task]:
    return [Task(m["name"], dict(m)) for m in ctx.params["models"]]


def float_model(entry: dict, image_size: int) -> onnx.ModelProto:
    """The float ONNX of a model entry: library export (optionally its first NPU body) or the zoo file."""
    if entry.get("source", "library") == "zoo":
        from npuready.graph import load
        from npuready.quant.zoo_qdq import zoo_path

        return load(zoo_path(entry["name"])).model
    from npuready.models.library.export import cached_onnx

    return onnx.load(str(cached_onnx(entry["name"], image_size=image_size)))


def npu_body(model: onnx.ModelProto, target: str) -> onnx.ModelProto:
    """The first NPU body the partition planner cuts from ``model`` for ``target`` (``partition --extract``)."""
    from npuready.partition.extract import build_parts
    from npuready.partition.plan import plan_partition

    return next(p for p in build_parts(plan_partition(model, target)) if p.device == "npu").model


def qdq_body(qdq: onnx.ModelProto, body: onnx.ModelProto) -> onnx.ModelProto:
    """The QDQ model cut at the body's outputs, each kept behind its QuantizeLinear → DequantizeLinear pair
    (the whole model is calibrated and quantised first: a body output produced by an op the quantiser does
    not wrap, e.g. YOLO's box Sub, is still quantised because the tail consumed it)."""
    from onnx.utils import Extractor

    dq_of = {n.input[0]: n.output[0] for n in qdq.graph.node if n.op_type == "DequantizeLinear"}
    q_of = {n.input[0]: n.output[0] for n in qdq.graph.node if n.op_type == "QuantizeLinear"}
    outs = [dq_of[q_of[o.name]] for o in body.graph.output]
    return Extractor(onnx.shape_inference.infer_shapes(qdq)).extract_model([i.name for i in body.graph.input], outs)


def _photo_inputs(model: onnx.ModelProto, preset_name: str, count: int, seed: int) -> np.ndarray:
    from npuready.data.photo_crops import photo_crops
    from npuready.preprocess.bind import bind_to_model
    from npuready.preprocess.pipeline import apply
    from npuready.preprocess.presets import preset

    spec = bind_to_model(preset(preset_name), model)
    return np.concatenate([apply(spec, im) for im in photo_crops(count, seed)]).astype(np.float32)


def inputs(entry: dict, model: onnx.ModelProto, params: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, str]:
    """(calibration inputs, evaluation inputs, labels or None, where they came from)."""
    seed = int(params.get("seed", 0))
    if entry.get("source", "library") == "zoo":
        from npuready.graph import load
        from npuready.quant.inputs import load_inputs

        shape = tuple(d if isinstance(d, int) else 1 for d in load(model).inputs[0].shape)
        calib = load_inputs("fashion-mnist:train", params["calibration_images"], shape, seed=seed).x
        test = load_inputs("fashion-mnist:test", params["images"], shape, seed=seed)
        return calib, test.x, test.labels, "Fashion-MNIST (committed subset), the zoo input contract"
    calib = _photo_inputs(model, entry["preset"], params["calibration_images"], seed + 1)
    test = _photo_inputs(model, entry["preset"], params["images"], seed)
    return calib, test, None, f"sample-photo crops through preset {entry['preset']}"


def prepare(entry: dict, params: dict) -> dict[str, Any]:
    """Float model, QDQ model, integer graph and inputs of one entry (shared with ``benchmarks/bench_engine``)."""
    from npuready.quant.decompose_layernorm import decompose_layernorm
    from npuready.engine.export import export_integer_graph
    from npuready.quant.ptq import quantize_model

    t0 = time.perf_counter()
    fm, decomposed = decompose_layernorm(float_model(entry, int(params["image_size"])))
    calib, x, labels, source = inputs(entry, fm, params)
    t1 = time.perf_counter()
    qdq = quantize_model(fm, [np.ascontiguousarray(calib[i:i + 1]) for i in range(len(calib))],
                         params.get("method", "minmax"))
    if entry.get("body_target"):
        fm = npu_body(fm, entry["body_target"])
        qdq = qdq_body(qdq, fm)
    t2 = time.perf_counter()
    graph = export_integer_graph(qdq, rounding=params.get("rounding", "tflite-ref"))
    t3 = time.perf_counter()
    return {"float": fm, "qdq": qdq, "graph": graph, "x": x, "labels": labels, "source": source,
            "layernorms_decomposed": decomposed,
            "seconds": {"export_and_inputs": t1 - t0, "quantize": t2 - t1, "integer_export": t3 - t2}}


def _engines(graph, x, chunk: int = 25) -> tuple[dict, np.ndarray]:
    """NumPy vs C++ on every tensor of every image (counts), and the NumPy output codes of the first output."""
    from npuready.experiments.runners.bitexact_litert import _cpp_vs_numpy

    outs: list = []
    counts = _cpp_vs_numpy(graph, x, chunk, outs)
    return counts, np.concatenate(outs)


def _vela(qdq, targets: list[str]) -> dict[str, dict]:
    """Compile the INT8 TFLite with Vela per Ethos-U mirror: cycles and CPU operators (Vela's own estimate)."""
    import tempfile
    from pathlib import Path

    from npuready.cost import vela
    from npuready.cost.vela_placement import placement
    from npuready.errors import InputError
    from npuready.targets import load_target
    from npuready.tflite.export import export_int8_from_qdq

    out: dict[str, dict] = {}
    if not targets:
        return out
    with tempfile.TemporaryDirectory(prefix="npuready-vela-") as tmp:
        tfl = Path(tmp) / "model_int8.tflite"
        try:
            tfl.write_bytes(export_int8_from_qdq(qdq))
        except InputError as exc:
            return {t: {"compiled": False, "reason": f"INT8 TFLite export: {exc}"} for t in targets}
        for name in targets:
            try:
                _, summary = vela.compile_tflite(tfl, load_target(name), Path(tmp) / name)
            except InputError as exc:
                out[name] = {"compiled": False, "reason": str(exc)}
                continue
            npu, cpu = placement(Path(tmp) / name / "model_int8_vela.tflite")
            out[name] = {"compiled": True, "evidence": "Vela's estimate (a model, not silicon)",
                         "cycles_total": summary.get("cycles_total"), "npu_custom_operators": npu,
                         "cpu_operators": [c.to_dict() for c in cpu]}
    return out


def run_task(ctx: RunContext, args: dict) -> dict:
    from importlib.metadata import version

    from npuready.errors import InputError
    from npuready.verify.litert_oracle import compare_with_litert
    from npuready.verify.margins import margin_stats
    from npuready.verify.runners import run_float

    p = dict(ctx.params)
    for dist in ("ai-edge-litert", "onnxruntime", "onnx", "numpy", "torch", "timm", "torchvision", "ultralytics"):
        ctx.tool(dist, version(dist))
    ctx.seed("photo crops (evaluation; calibration uses seed + 1)", int(p.get("seed", 0)))
    entry = dict(args)
    zoo = entry.get("source", "library") == "zoo"
    if zoo:
        from npuready.paths import zoo_dir

        path = zoo_dir() / f"{entry['name']}.onnx"
        if not path.is_file():
            return {"status": "pending", "weights": "trained",
                    "reason": f"zoo/{entry['name']}.onnx is not in the repository yet (trained by 'npuready train')"}
        ctx.input(path)
    start = time.perf_counter()
    try:
        prep = prepare(entry, p)
    except InputError as exc:
        return {"status": "refused", "reason": str(exc), "weights": "trained" if zoo else "random-initialised"}
    graph, x = prep["graph"], prep["x"]
    t0 = time.perf_counter()
    report = compare_with_litert(prep["qdq"], x, graph, optimized=False, model_name=entry["name"],
                                 progress=ctx.progress)
    t1 = time.perf_counter()
    cpp, codes = _engines(graph, x)
    t2 = time.perf_counter()
    s = report.summary()
    kinds: dict[str, int] = {}
    for op in graph.ops:
        kinds[op.kind] = kinds.get(op.kind, 0) + 1
    per_kind: dict[str, dict] = {}
    for row in s["ops"]:
        k = per_kind.setdefault(row["kind"], {"ops": 0, "elements": 0, "mismatched_propagated": 0,
                                              "mismatched_local": 0})
        k["ops"] += 1
        for key in ("elements", "mismatched_propagated", "mismatched_local"):
            k[key] += row[key]
    out = {
        "status": "ran", "evidence": "measured",
        "weights": "trained" if zoo else "random-initialised",
        "library": "zoo" if zoo else entry.get("library", _library(entry["name"])),
        "inputs": prep["source"], "images": s["images"],
        "body_target": entry.get("body_target"),
        "layernorms_decomposed": prep["layernorms_decomposed"],
        "integer_ops": len(graph.ops), "op_kinds": dict(sorted(kinds.items())),
        "rounding_profile": graph.rounding,
        "tensors_compared": s["tensors_compared"], "tensors_mismatched": s["tensors_mismatched"],
        "elements_compared": s["elements_compared"],
        "elements_mismatched_propagated": s["elements_mismatched_propagated"],
        "elements_mismatched_local": s["elements_mismatched_local"],
        "ops_not_compared": [r["op"] for r in s["ops"] if not r["compared"]],
        "per_kind": per_kind,
        "cpp_vs_numpy": cpp,
    }
    if p.get("vela_targets"):
        ctx.tool("ethos-u-vela", version("ethos-u-vela"))
        t3 = time.perf_counter()
        out["vela"] = _vela(prep["qdq"], list(p["vela_targets"]))
        ctx.timing(f"{entry['name']}.vela", time.perf_counter() - t3)
    if len(graph.outputs) == 1 and codes.reshape(len(x), -1).shape[1] > 1 and not entry.get("body_target"):
        f_out = run_float(prep["float"], x)
        logits = graph.dequantize(graph.outputs[0], codes)
        out["margins"] = margin_stats(f_out, logits, graph.tensors[graph.outputs[0]].scale).to_dict()
        if prep["labels"] is not None:
            n = len(x)
            out["accuracy"] = {"float": float((f_out.reshape(n, -1).argmax(1) == prep["labels"]).mean()),
                               "integer": float((logits.reshape(n, -1).argmax(1) == prep["labels"]).mean())}
    seconds = {**prep["seconds"], "litert_compare": t1 - t0, "cpp_vs_numpy": t2 - t1,
               "total": time.perf_counter() - start}
    for key, value in seconds.items():  # wall seconds go to the timing block: they differ on every run
        ctx.timing(f"{entry['name']}.{key}", value)
    return out


def _library(name: str) -> str:
    from npuready.models.library.recipes import get_recipe

    return get_recipe(name).library


def merge(ctx: RunContext, outputs: dict) -> dict:
    ran = {k: v for k, v in outputs.items() if v.get("status") == "ran"}
    summary = [{"model": k, "library": v["library"], "weights": v["weights"], "images": v["images"],
                "integer_ops": v["integer_ops"], "tensors_compared": v["tensors_compared"],
                "tensors_mismatched": v["tensors_mismatched"],
                "elements_mismatched": v["elements_mismatched_propagated"],
                "cpp_tensors_mismatched": v["cpp_vs_numpy"]["tensors_mismatched"],
                "top1_agreement_integer_vs_float": v.get("margins", {}).get("agreement"),
                **{f"vela_cpu_operators_{t}": (len(r["cpu_operators"]) if r.get("compiled") else None)
                   for t, r in v.get("vela", {}).items()}} for k, v in ran.items()]
    return {
        "setup": {"evidence": "measured", "image_size": ctx.params["image_size"], "images": ctx.params["images"],
                  "calibration_images": ctx.params["calibration_images"], "method": ctx.params.get("method", "minmax"),
                  "note": "library architectures carry random-initialised weights (built offline by timm, "
                          "torchvision, ultralytics); trained entries are zoo checkpoints. LiteRT BUILTIN_REF "
                          "is TFLite's reference arithmetic on this CPU, not NPU silicon."},
        "summary": {"evidence": "measured", "rows": summary},
        "totals": {"evidence": "measured", "models_ran": len(ran),
                   "models_pending": sorted(k for k, v in outputs.items() if v.get("status") == "pending"),
                   "models_refused": sorted(k for k, v in outputs.items() if v.get("status") == "refused"),
                   "tensors_compared": sum(v["tensors_compared"] for v in ran.values()),
                   "tensors_mismatched": sum(v["tensors_mismatched"] for v in ran.values()),
                   "elements_compared": sum(v["elements_compared"] for v in ran.values()),
                   "elements_mismatched": sum(v["elements_mismatched_propagated"] for v in ran.values()),
                   "cpp_tensors_mismatched": sum(v["cpp_vs_numpy"]["tensors_mismatched"] for v in ran.values()),
                   "vela_compiled": sum(bool(r.get("compiled")) for v in ran.values()
                                        for r in v.get("vela", {}).values()),
                   "vela_compiles": sum(len(v.get("vela", {})) for v in ran.values()),
                   "vela_cpu_operators": sum(len(r.get("cpu_operators", [])) for v in ran.values()
                                             for r in v.get("vela", {}).values())},
        "per_model": {"evidence": "measured", "models": dict(outputs)},
    }
