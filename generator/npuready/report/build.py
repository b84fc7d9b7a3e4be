"""Build one model report: graph description + per target lint, partition, cost (+ the parity ladder).

The result is a dict of sections, each carrying its evidence label, the way experiment results do:
``model`` and ``graph`` and ``lint`` and ``partition`` are ``analysis`` (ONNX structure, the targets' op
tables and onnxruntime — not NPU silicon); ``cost`` is ``simulated``; ``ladder`` (float → fake-quant →
integer on real inputs) is ``measured``; ``checks`` states the report's own sanity checks.
The stages are the project's own APIs (one ``npuready.analysis.analyse`` pass per target for lint, partition
and cost; ``quant.ptq.quantize_model``, ``verify.ladder.run_ladder``); nothing is recomputed here.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from npuready.errors import InputError
from npuready.report import checks
from npuready.report.graphdesc import describe
from npuready.report.budget import summarise
from npuready.report.prepared import Calibration, PreparedReport, prepare
from npuready.report.request import ReportRequest
from npuready.report.source import ModelSource

LINT_BASIS = "ONNX structure, the target's declared op support and onnxruntime; not NPU silicon"


def _independent_macs(src: ModelSource) -> tuple[int | None, str]:
    if src.recipe is None:
        return None, "none (not a library recipe)"
    from npuready.models.library.macs import count_macs

    shape = src.graph.inputs[0].shape
    count = count_macs(src.recipe, batch=shape[0], image_size=shape[2]) if shape else count_macs(src.recipe)
    return count.macs, "torch.utils.flop_counter.FlopCounterMode on the library's module (MACs = FLOPs/2)"


def _ladder(src: ModelSource, request: ReportRequest, calibration: Calibration) -> dict[str, Any]:
    from npuready.quant.ptq import quantize_model
    from npuready.verify.gate import GateLimits, gate
    from npuready.verify.ladder import run_ladder

    x, labels, what = calibration.x, calibration.labels, calibration.what
    out: dict[str, Any] = {"evidence": "measured", "inputs": what, "calibration_is_also_the_test_set": True,
                           "weights": src.weights}
    try:
        qdq = quantize_model(src.graph.model, [x[i:i + 1] for i in range(len(x))], "minmax")
        result = run_ladder(src.graph.model, qdq, x, labels, model_name=src.label, task=request.task)
    except InputError as exc:  # e.g. an op without an integer kernel yet: say so, keep the rest of the report
        return {**out, "status": "not run", "reason": str(exc)}
    limits = GateLimits()
    verdict = gate(result, limits)
    return {**out, "status": "ran", "ladder": result.to_dict(),
            "gate": {"passed": verdict.passed, "reasons": list(verdict.reasons), "cause": verdict.cause,
                     "task": result.task_name}}


def _edges(request: ReportRequest, recipe: str | None) -> str:
    """The partition edges policy: as asked, or for "auto" the CPU for post-processing of detection,
    segmentation and pose recipes (decode and NMS run on the host, as YOLO deployments do) and the NPU otherwise."""
    if request.edges != "auto":
        return request.edges
    if recipe is not None:
        from npuready.models.library.recipes import RECIPES

        if recipe in RECIPES and RECIPES[recipe].task in ("detect", "segment", "pose"):
            return "cpu"
    return "npu"


def build_report(request: ReportRequest, progress: Callable[[str], None] = lambda msg: None,
                 prepared: PreparedReport | None = None) -> dict[str, Any]:
    """The report's result sections (see the module docstring). ``prepared``: the request's inputs already
    checked by ``report.prepared.prepare`` (which runs here when not given, before any stage or progress line).
    Above ``request.max_report_nodes`` the result is summarised (``report.budget``); ``timing`` holds wall
    seconds (measured) and is the one section that differs between runs."""
    from npuready.analysis import STAGES, AnalysisOptions, analyse

    timings: dict[str, float] = {}
    start = time.perf_counter()
    before = prepared.seconds if prepared is not None else 0.0  # loading done by the caller, counted in total_s
    prepared = prepared if prepared is not None else prepare(request)
    src = prepared.source
    timings["load_s"] = prepared.seconds
    desc = describe(src.graph)
    edges = _edges(request, src.recipe)
    lint_out, part_out, cost_out, target_checks = {}, {}, {}, {}
    for name, target in zip(request.targets, prepared.targets):
        progress(f"{src.label} on {name}")
        row: dict[str, Any] = {}
        stages = tuple(s for s in STAGES if s in request.stages)
        if stages:
            found = analyse(src.graph, target, AnalysisOptions(stages=stages, edges=edges))
            timings.update({f"{stage}_{name}_s": s for stage, s in found.seconds.items()})
            if "lint" in stages:
                lint_out[name] = found.lint.to_dict()
            if "partition" in stages:
                part_out[name] = found.plan.to_dict()
            if "cost" in stages:
                cost_out[name] = found.cost.to_dict()
                row["cycles_sum"] = checks.cycles_sum(cost_out[name])
        if name in part_out and (norms := checks.norm_placement(src.graph, target, part_out[name])) is not None:
            row["norm_placement"] = norms
        if name in part_out and src.recipe and _is_yolo(src.recipe):
            row["yolo_tail"] = checks.yolo_tail(desc, part_out[name])
        target_checks[name] = row
    result: dict[str, Any] = {
        "model": {"evidence": "analysis", "label": src.label, "file": src.path.name, "sha256": src.sha256,
                  "recipe": src.recipe, "weights": src.weights, "targets": list(request.targets),
                  "stages": list(request.stages),
                  "input_shape_pins": {k: list(v) for k, v in request.input_shapes},
                  "batch_pin": request.batch, "edges": edges,
                  "imported": src.graph.imported.to_dict() if src.graph.imported is not None else None},
        "graph": {"evidence": "analysis", **desc},
    }
    if lint_out:
        result["lint"] = {"evidence": "analysis", "basis": LINT_BASIS, "targets": lint_out}
    if part_out:
        result["partition"] = {"evidence": "analysis", "targets": part_out}
    if cost_out:
        result["cost"] = {"evidence": "simulated", "targets": cost_out}
    if request.runs_quantize:
        t = time.perf_counter()
        result["ladder"] = _ladder(src, request, prepared.calibration)
        timings["ladder_s"] = time.perf_counter() - t
    mac_check = None
    if cost_out:
        first = cost_out[request.targets[0]]
        independent, how = _independent_macs(src)
        mac_check = checks.macs(first["total"]["macs"], independent, how)
    result["checks"] = _checks_section(desc, len(src.graph.proto.node), target_checks, mac_check)
    result = summarise(result, request.max_report_nodes)  # after the checks: they cover the whole graph
    result["timing"] = {"evidence": "measured", **{k: round(v, 3) for k, v in timings.items()},
                        "total_s": round(before + time.perf_counter() - start, 3)}
    return result


def _is_yolo(recipe: str) -> bool:
    from npuready.models.library.recipes import RECIPES

    return RECIPES[recipe].library == "ultralytics"


def _checks_section(desc, onnx_nodes, per_target, mac_check) -> dict[str, Any]:
    section: dict[str, Any] = {"evidence": "analysis", "node_count": checks.node_count(desc, onnx_nodes),
                               "targets": per_target}
    if mac_check is not None:
        section["macs"] = mac_check
    oks = [section["node_count"]["ok"]] + [c["ok"] for row in per_target.values() for c in row.values()]
    if mac_check is not None and mac_check["ok"] is not None:
        oks.append(mac_check["ok"])
    section["all_ok"] = all(oks)
    return section


def report_failed(result: dict[str, Any]) -> bool:
    """Exit-code rule: 1 when a sanity check fails or the parity gate fails, else 0."""
    ladder = result.get("ladder", {})
    gate_failed = ladder.get("status") == "ran" and not ladder["gate"]["passed"]
    return (not result["checks"]["all_ok"]) or gate_failed
