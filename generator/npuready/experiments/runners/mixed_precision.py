"""Experiment `mixed-precision`: per-layer INT8 sensitivity and cost-aware mixed precision on a trained zoo model.

Per model: the sensitivity table (``sensitivity.measure``) on held-out Fashion-MNIST train images (not in the
256 calibration images), each layer's keep-float cost per target (``sensitivity.cost``, simulated), the
``--keep-float auto`` search on the search target scored end to end on the integer engine, and the parity
ladder (``verify.ladder``, C++ engine) of the all-INT8 build, the mixed build and a naive "first and last
layer float" baseline on the Fashion-MNIST test images. Beside our ranking: onnxruntime's
``qdq_loss_debug`` per-activation SQNR on the first of the same held-out images, ranked worst first, and how many of its
top layers our top layers share. Unit of work: one model.
"""
from __future__ import annotations

import hashlib
import math
from pathlib import Path

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def tasks(ctx: RunContext) -> list[Task]:
    return [Task(n, {"model": n}) for n in ctx.params["models"]]


def _ladder(fm, model, test, engine):
    from npuready.verify.ladder import run_ladder

    r = run_ladder(fm, model, test.x, test.labels, engine=engine)
    return {"top1_agreement_integer_vs_float": r.agreement.get("integer_vs_float"),
            "top1_agreement_fake_quant_vs_float": r.agreement.get("fake_quant_vs_float"),
            "accuracy_integer": r.accuracy.get("integer"), "accuracy_float": r.accuracy.get("float"),
            "float_ops": sum(t.kind == "Float" for t in r.tensors), "refused": dict(r.refused),
            "kept_float_nodes": list(r.kept_float)}


def _costs(fm, names, targets) -> list[dict]:
    from npuready.sensitivity.cost import KeepFloatCost

    rows = []
    for t in targets:
        k = KeepFloatCost(fm, t)
        d = k.delta(list(names))
        rows.append({"target": t, "cycles_int8": k.base.cycles, "extra_cycles": d.extra_cycles,
                     "extra_transfer_bytes": d.extra_transfer_bytes, "extra_segments": d.extra_segments})
    return rows


def _se(p: float, n: int) -> float:
    """The standard error of an agreement ``p`` measured on ``n`` images (binomial)."""
    return math.sqrt(max(p * (1 - p), 0.0) / n) if n else 0.0


def search_record(choice, holdout: int, test: int, test_metric: float, layers: int, test_goal: float) -> dict:
    """Which bound stopped ``--keep-float auto`` and why its held-out figure differs from the test one.

    The search accepts each layer by its effect on the held-out images and stops at the first set that reaches
    the goal there, so its held-out figure is selected on those images: it over-states what the same build does
    on images the search never saw (the test images) by more than their sampling noise alone. ``test_goal``: the
    agreement the build should reach on the test images (the search's ``min_metric`` may ask more of the
    held-out images, as a margin for that bias)."""
    bounds = {"min_metric": choice.min_metric, "max_extra_cycles": None, "max_layers": None, "layers": layers}
    m = choice.metric
    gap = m - test_metric
    noise = math.hypot(_se(m, holdout), _se(test_metric, test))
    if choice.stopped_by == "reached":
        stop = (f"the search stopped on reaching its goal: {m:.4g} on {holdout} held-out images (min-metric "
                f"{choice.min_metric:.4g}) with {len(choice.kept)} of {layers} layers float")
    else:
        stop = (f"the search stopped by {choice.stopped_by} at {m:.4g} on {holdout} held-out images, short of "
                f"min-metric {choice.min_metric:.4g}, with {len(choice.kept)} of {layers} layers float")
    if gap > 2 * noise:
        why = (f"the same build scores {test_metric:.4g} on {test} test images; the gap {gap:.4g} exceeds twice "
               f"the sampling noise of both figures ({noise:.4g}): the held-out figure is selection-biased, each "
               "layer having been accepted by its effect on those same images")
    else:
        why = (f"the same build scores {test_metric:.4g} on {test} test images; the gap {gap:.4g} is within twice "
               f"the sampling noise of both figures ({noise:.4g})")
    verdict = (f"the test figure {'meets' if test_metric >= test_goal else 'misses'} the goal {test_goal:.4g}"
               + ("" if test_metric >= test_goal or choice.stopped_by != "reached" else
                  f": the bound that stopped the search is min-metric {choice.min_metric:.4g} on the held-out "
                  "images, reached there but not on the test images"))
    return {"stopped_by": choice.stopped_by, "reached_on_holdout": choice.reached, "bounds": bounds,
            "holdout_images": holdout, "metric_holdout": m, "metric_holdout_se": _se(m, holdout),
            "test_images": test, "metric_test": test_metric, "metric_test_se": _se(test_metric, test),
            "gap": gap, "noise": noise, "test_goal": test_goal, "test_meets_goal": test_metric >= test_goal,
            "why": f"{stop}; {why}; {verdict}."}


def run_task(ctx: RunContext, args: dict) -> dict:
    from importlib.metadata import version

    from npuready.quant.inputs import load_inputs
    from npuready.quant.keep_float import keep_float, quantised_layers
    from npuready.sensitivity.keep_float_build import build_mixed
    from npuready.quant.prepare import fold_constants
    from npuready.quant.zoo_qdq import quantize_zoo, zoo_path
    from npuready.sensitivity.cost import layer_costs
    from npuready.sensitivity.data import split_inputs
    from npuready.sensitivity.measure import _float_name, with_costs
    from npuready.sensitivity.ort_debug import qdq_loss_errors

    p = ctx.params
    for dist in ("onnxruntime", "onnx", "numpy"):
        ctx.tool(dist, version(dist))
    seed = ctx.seed("calibration", p.get("seed", 0))
    name = args["model"]
    onnx_path = zoo_path(name)
    ctx.input(onnx_path)
    model_sha256 = hashlib.sha256(Path(onnx_path).read_bytes()).hexdigest()  # model pages of this file overlay it
    fm, qdq = quantize_zoo(name, "minmax", p["calibration_images"], seed)
    fm = fold_constants(fm)
    shape = tuple(d.dim_value or 1 for d in fm.graph.input[0].type.tensor_type.shape.dim)
    split = split_inputs("fashion-mnist:train", p["calibration_images"], p["holdout"], shape)
    test = load_inputs("fashion-mnist:test", p["images"], shape)
    mixed, choice, table = build_mixed(fm, qdq, "auto", p["search_target"], split.holdout, None, p["min_metric"],
                                       None, "integer", ctx.progress)
    table = with_costs(table, layer_costs(fm, [r.name for r in table.rows], p["targets"]))
    kept = [k.name for k in choice.kept]
    layers = quantised_layers(qdq)
    naive = [layers[0].name, layers[-1].name]
    ours_rank = [r.name for r in table.rows]
    ort_images = split.holdout[:p.get("ort_debug_images", 100)]  # it keeps every activation of every image
    ort = qdq_loss_errors(fm, qdq, ort_images)
    by_output = {_float_name(layer.output): layer.name for layer in layers}
    ort_rank = [by_output[t] for t, e in sorted(ort.items(), key=lambda kv: (kv[1]["xmodel_err"], kv[0]))
                if t in by_output]
    k = p.get("compare_top", 5)
    builds = {"int8": [], "auto": kept, "first_last": naive}
    ladders = {b: _ladder(fm, qdq if not names else keep_float(qdq, fm, names), test, p.get("engine", "cpp"))
               for b, names in ctx.progress(list(builds.items()), "parity ladder")}
    del mixed
    test_metric = ladders["auto"]["top1_agreement_integer_vs_float"]
    return {
        "model": name, "model_sha256": model_sha256, "images": int(len(test.x)), "holdout": int(len(split.holdout)),
        "layers": len(layers), "search_target": p["search_target"], "min_metric": p["min_metric"],
        "sensitivity": table.to_dict(),
        "keep_float": choice.to_dict(),
        "test_goal": p.get("test_goal", p["min_metric"]),
        "search": search_record(choice, int(len(split.holdout)), int(len(test.x)), test_metric, len(layers),
                                p.get("test_goal", p["min_metric"])),
        "builds": {b: {"kept": names, "kept_count": len(names), **ladders[b], "costs": _costs(fm, names, p["targets"])}
                   for b, names in builds.items()},
        "ranking": {"ours_top": ours_rank[:k], "ort_qdq_loss_debug_top": ort_rank[:k],
                    "shared_in_top": len(set(ours_rank[:k]) & set(ort_rank[:k])), "top": k,
                    "ort_images": int(len(ort_images)),
                    "ort_xmodel_sqnr_db": {by_output[t]: e["xmodel_err"] for t, e in ort.items() if t in by_output}},
    }


def merge(ctx: RunContext, outputs: dict) -> dict:
    """One section per model (agreements and metrics measured; its cost fields simulated, labelled inside),
    and ``costs``: per model, build and target, the cycles and bytes keeping the build's layers float adds."""
    results: dict = {}
    rows = []
    for o in outputs.values():
        results[o["model"]] = {**o, "evidence": "measured",
                               "evidence_detail": {"agreement": "measured", "metrics": "measured",
                                                   "cycles": "simulated", "transfer_bytes": "simulated"}}
        for b, v in o["builds"].items():
            for c in v["costs"]:
                rows.append({"model": o["model"], "build": b, "kept": len(v["kept"]),
                             "top1_agreement_integer_vs_float": v["top1_agreement_integer_vs_float"],
                             "target": c["target"], "extra_cycles": c["extra_cycles"],
                             "extra_transfer_bytes": c["extra_transfer_bytes"]})
    results["costs"] = {"evidence": "simulated", "rows": rows}
    return results
