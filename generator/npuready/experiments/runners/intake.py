"""Experiment `intake`: the intake report on zoo classifiers (applied) and on ONNX models that are not in the zoo.

Zoo cases run ``npuready intake MODEL --apply``: the diagnosis and prescription of the committed ONNX
export, then the automatic actions (activation swap with ``surgery.swap`` and ``recovery_steps`` of
fine-tuning, per-channel PTQ, stratified calibration) with accuracies measured on the committed
Fashion-MNIST test subset. Non-zoo cases are a user's own ONNX: the partition planner's in-code
examples (``example:<name>``) and the onnx wheel's light models (``onnx-light:<name>``) - diagnosis
and prescription only. Cycles are simulated; lint/partition rest on ONNX structure, not NPU silicon.
Unit of work: one case (model x target); the merge keeps the zoo cases first, then the user-ONNX cases.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def _source(ctx: RunContext, text: str, tmp: Path) -> Path:
    import onnx

    kind, _, name = text.partition(":")
    if kind == "example":
        from npuready.partition.examples import EXAMPLES

        if name not in EXAMPLES:
            raise InputError(f"intake experiment: example {name!r} unknown; choose one of {sorted(EXAMPLES)}")
        path = tmp / f"{name}.onnx"
        onnx.save(EXAMPLES[name](), path)
        return path
    if kind == "onnx-light":
        from npuready.experiments.onnx_corpus import corpus_root

        path = corpus_root() / "light" / f"{name}.onnx"
        if not path.is_file():
            raise InputError(f"intake experiment: {path} not in the installed onnx wheel")
        return ctx.input(path)
    raise InputError(f"intake experiment: source {text!r}; use example:<name> or onnx-light:<name>")


def _row(label: str, rep: dict[str, Any]) -> dict[str, Any]:
    d = rep["diagnosis"]
    hot = d["hotspots"][0] if d["hotspots"] else {}
    return {"model": label, "target": rep["target"], "zoo": rep["zoo_name"] is not None,
            "lint_errors": d["lint"]["summary"]["errors"], "lint_warnings": d["lint"]["summary"]["warnings"],
            "error_rules": sorted({f["rule"] for f in d["lint"]["findings"] if f["severity"] == "ERROR"}),
            "verdict": d["partition"]["verdict"], "npu_segments": d["partition"]["npu_segments"],
            "cycles": d["cost"].get("cycles"), "macs": d["cost"].get("macs"),
            "top_layer": hot.get("node"), "top_layer_op": hot.get("op_type"), "top_layer_share": hot.get("share"),
            "risks_high": sum(1 for r in d["risks"] if r["level"] == "high"),
            "risk_kinds": sorted({r["kind"] for r in d["risks"]}),
            "actions": [a["id"] for a in rep["prescription"]]}


def _actions(label: str, rep: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"model": label, "target": rep["target"], "order": a["order"], "id": a["id"], "title": a["title"],
             "expected": a["expected"], "recommended": a["recommended"], "automatic": a["automatic"],
             "basis": a["evidence"]} for a in rep["prescription"]]


def tasks(ctx: RunContext) -> list[Task]:
    """One task per zoo case (intake --apply), one per user-ONNX case (diagnose + prescribe)."""
    return ([Task(f"zoo:{c['model']}@{c['target']}", {"kind": "zoo", **c}) for c in ctx.params.get("zoo", [])]
            + [Task(f"onnx:{c['source']}@{c['target']}", {"kind": "onnx", **c}) for c in ctx.params.get("onnx", [])])


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:

    import onnx
    import onnxruntime

    from npuready.intake import intake
    from npuready.paths import zoo_dir

    p = ctx.params
    ctx.seed("seed", int(p.get("seed", 0)))
    ctx.tool("onnx", onnx.__version__)
    ctx.tool("onnxruntime", onnxruntime.__version__)
    if args["kind"] == "onnx":
        with tempfile.TemporaryDirectory() as tmp:
            path = _source(ctx, args["source"], Path(tmp))
            rep = intake(str(path), args["target"]).to_dict()
        return {"row": _row(args["source"], rep), "actions": _actions(args["source"], rep)}
    name, target = args["model"], args["target"]
    for suffix in ("onnx", "pt"):
        ctx.input(zoo_dir() / f"{name}.{suffix}")
    t0 = time.perf_counter()
    rep = intake(name, target, apply=True, recovery_steps=int(p.get("recovery_steps", 300)),
                 eval_images=int(p.get("eval_images", 1000))).to_dict()
    ctx.timing(f"{name}@{target}", time.perf_counter() - t0)
    out = rep["applied"]
    acc_rows, cost_rows = [], []
    for st in out["stages"]:
        acc_rows.append({"model": name, "target": target, "stage": st["name"], "images": out["eval_images"],
                         "float_accuracy": st["float_accuracy"], "fake_quant_accuracy": st["fake_quant_accuracy"],
                         "integer_accuracy": st["integer_accuracy"], "integer_note": st["integer_note"],
                         "settings": st["settings"]})
        cost_rows.append({"model": name, "target": target, "stage": st["name"], "lint_errors": st["lint_errors"],
                          "cycles": st["cycles"]})
    return {"row": _row(name, rep), "actions": _actions(name, rep), "accuracy": acc_rows, "cost": cost_rows,
            "swaps": [{"model": name, "target": target, **s} for s in out["swaps"]]}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    done = list(outputs.values())
    rows = [o["row"] for o in done]
    actions = [a for o in done for a in o["actions"]]
    acc_rows = [r for o in done for r in o.get("accuracy", [])]
    cost_rows = [r for o in done for r in o.get("cost", [])]
    swaps = [s for o in done for s in o.get("swaps", [])]
    basis = ("lint/partition: ONNX structure and the target description, not NPU silicon; cycles: analytic cost "
             "model (simulated)")
    return {
        "summary": {"evidence": "analysis", "basis": basis, "reports": len(rows),
                    "blocked_by_lint": sum(1 for r in rows if r["lint_errors"]),
                    "fragmented": sum(1 for r in rows if r["verdict"] == "fragmented"),
                    "actions": len(actions), "zoo_models_applied": len({(r["model"], r["target"]) for r in cost_rows})},
        "diagnoses": {"evidence": "analysis", "basis": basis, "rows": rows},
        "prescriptions": {"evidence": "analysis", "basis": basis + "; expected effects from re-running linter and "
                          "cost model on a rewritten copy of the graph", "rows": actions},
        "applied_accuracy": {"evidence": "measured", "eval_set": "Fashion-MNIST committed subset, test split",
                             "rows": acc_rows, "swaps": swaps},
        "applied_cost": {"evidence": "simulated", "basis": basis, "rows": cost_rows},
    }
