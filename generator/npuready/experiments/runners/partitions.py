"""Experiment `partitions`: the partition planner on its example models and onnx's light_resnet50,
recomposition checks of the extracted parts, and the side-by-side with onnxruntime's NNAPI checker.

Units of work: example x target x edge policy, light_resnet50 (all targets), each corpus model, the NNAPI
comparison; the merge keeps that order."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from npuready.experiments.context import RunContext
from npuready.experiments.onnx_corpus import corpus_files, corpus_root
from npuready.experiments.task import Task


def _row(name: str, plan) -> dict[str, Any]:
    return {"model": name, "target": plan.target, "edges": plan.edges, "verdict": plan.verdict,
            "npu_segments": len(plan.npu_segments), "segments": [s.name for s in plan.segments],
            "splitters": sorted({op for _, op, _ in plan.splitters}),
            "npu_mac_share": round(sum(s.mac_share for s in plan.npu_segments), 6),
            "transfer_bytes_per_inference": plan.transfer_bytes, "total_macs": plan.total_macs,
            "cpu_computations": len(plan.inventory), "missing_cpu_code": [i.node for i in plan.missing_cpu_code]}


def _recompose(model: onnx.ModelProto, plan) -> dict[str, Any]:
    import onnxruntime as ort

    from npuready.partition import extract, run_parts
    from npuready.partition.examples import example_inputs

    feeds = example_inputs(model, seed=0)
    ref = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    with tempfile.TemporaryDirectory() as tmp:
        manifest = extract(plan, tmp)
        got = run_parts(tmp, feeds)
    diff = max(_diff(got[o.name], r) for r, o in zip(ref, model.graph.output))
    return {"parts": [p["file"] for p in manifest["parts"]], "max_abs_diff": diff}


def _corpus_feeds(path: Path, model: onnx.ModelProto) -> dict[str, np.ndarray] | None:
    from onnx import numpy_helper

    init = {t.name for t in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in init]
    feeds = {}
    for k, name in enumerate(names):
        pb = path.parent / "test_data_set_0" / f"input_{k}.pb"
        if not pb.exists():
            return None
        t = onnx.TensorProto()
        t.ParseFromString(pb.read_bytes())
        feeds[name] = numpy_helper.to_array(t)
    return feeds


def _diff(got: np.ndarray, ref: np.ndarray) -> float:
    """Max |got - ref| over finite positions; NaN/inf must sit at the same places with the same value."""
    if ref.dtype.kind not in "biuf":
        return float(not np.array_equal(got, ref))
    a, b = got.astype(np.float64), ref.astype(np.float64)
    finite = np.isfinite(a) & np.isfinite(b)
    same_special = np.array_equal(np.where(finite, 0, a), np.where(finite, 0, b), equal_nan=True)
    if not same_special:
        return 1.0  # a NaN/inf where the original has a number (or the other way round) counts as a full mismatch
    return float(np.max(np.abs(a[finite] - b[finite]), initial=0.0))


def _corpus_row(path: Path, target: str) -> dict[str, Any] | None:
    """Plan + extract + recompose one onnx-wheel test model; None when it ships no inputs or onnxruntime
    refuses the original (nothing to compare against)."""
    import onnxruntime as ort

    from npuready.errors import InputError
    from npuready.partition import extract, plan_partition, run_parts

    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    ort.set_default_logger_severity(3)
    model = onnx.load(str(path))
    feeds = _corpus_feeds(path, model)
    try:
        plan = plan_partition(path, target)
        ref = (ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
               .run(None, feeds) if feeds is not None else None)
    except InputError:
        ref = None
    except Exception:  # onnxruntime refuses the original model: nothing to compare against
        ref = None
    if ref is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        extract(plan, tmp)
        got = run_parts(tmp, feeds)
    diffs = [_diff(got[o.name], r) for r, o in zip(ref, model.graph.output)]
    return {"model": str(path.relative_to(corpus_root())), "parts": len(plan.segments), "verdict": plan.verdict,
            "max_abs_diff": max(diffs, default=0.0)}


def _corpus(target: str, outcomes: list[dict[str, Any] | None]) -> dict[str, Any]:
    """Every onnx-wheel test model that ships inputs and runs in onnxruntime: planned, extracted, recomposed."""
    rows = [r for r in outcomes if r is not None]
    return {"evidence": "measured", "target": target,
            "source": f"onnx {onnx.__version__} wheel: onnx/backend/test/data",
            "checked": len(rows), "skipped_no_inputs_or_not_runnable": len(outcomes) - len(rows),
            "within_1e-5": sum(r["max_abs_diff"] <= 1e-5 for r in rows),
            "max_abs_diff": max((r["max_abs_diff"] for r in rows), default=0.0), "rows": rows}


def _targets(ctx: RunContext) -> list[str]:
    return list(ctx.params.get("targets", ["edge-10", "nnapi-mirror"]))


def tasks(ctx: RunContext) -> list[Task]:
    """One task per example x target x edge policy, one for light_resnet50 on every target, one per corpus
    model, one for the NNAPI comparison."""
    from npuready.partition.examples import EXAMPLES

    edges = list(ctx.params.get("edges", ["npu", "cpu"]))
    root = corpus_root()
    return ([Task(f"example:{n}@{t}/{e}", {"part": "example", "model": n, "target": t, "edges": e})
             for n in EXAMPLES for t in _targets(ctx) for e in edges]
            + [Task("real:light_resnet50", {"part": "real"})]
            + [Task(f"corpus:{p.relative_to(root)}", {"part": "corpus", "path": str(p)}) for p in corpus_files()]
            + [Task("nnapi", {"part": "nnapi"})])


def run_task(ctx: RunContext, args: dict[str, Any]) -> Any:
    import onnxruntime

    from npuready.partition import plan_partition
    from npuready.partition.examples import EXAMPLES

    ctx.tool("onnx", onnx.__version__)
    ctx.tool("onnxruntime", onnxruntime.__version__)
    part = args["part"]
    if part == "example":
        model = EXAMPLES[args["model"]]()
        plan = plan_partition(model, args["target"], edges=args["edges"])
        return {"row": _row(args["model"], plan),
                "check": {"model": args["model"], "target": args["target"], "edges": args["edges"],
                          **_recompose(model, plan)}}
    if part == "real":
        resnet = corpus_root() / "light" / "light_resnet50.onnx"
        start = time.perf_counter()
        real = [_row("light_resnet50", plan_partition(resnet, t)) for t in _targets(ctx)]
        ctx.timing("partition_light_resnet50_all_targets_s", time.perf_counter() - start)
        return real
    if part == "corpus":
        return _corpus_row(Path(args["path"]), _targets(ctx)[0])
    from npuready.partition.compare_nnapi import compare

    return compare()


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    examples = [o for key, o in outputs.items() if key.startswith("example:")]
    rows, checks = [o["row"] for o in examples], [o["check"] for o in examples]
    return {
        "examples": {"evidence": "analysis", "basis": "static placement from op tables, lint ERRORs and shapes; "
                     "not an NPU compiler's partition", "rows": rows},
        "recomposition": {"evidence": "measured", "limit": 1e-5,
                          "note": "head→body→tail in onnxruntime vs the original model, same random feeds",
                          "rows": checks, "all_within_limit": all(c["max_abs_diff"] <= 1e-5 for c in checks)},
        "real_model": {"evidence": "analysis", "source": f"onnx {onnx.__version__} wheel: light/light_resnet50.onnx",
                       "rows": outputs.get("real:light_resnet50", [])},
        "corpus_recomposition": _corpus(_targets(ctx)[0],
                                        [o for key, o in outputs.items() if key.startswith("corpus:")]),
        **({"nnapi_comparison": outputs["nnapi"]} if "nnapi" in outputs else {}),  # else listed in failed_tasks
    }
