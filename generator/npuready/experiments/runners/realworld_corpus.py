"""Experiment `realworld-corpus`: model reports of real architectures built at run time by timm, torchvision
and ultralytics (random-initialised weights; nothing downloaded) on each target.

[params] ``models`` (recipe names, see ``npuready models list``), ``targets``, ``stages``.
Results: ``summary`` (one row per model x target, with the report's sanity checks and timings) and
``reports`` (per model a size-bounded summary of its report, ``report.summary.summarize``: a full
report lists every node per target and the corpus would weigh tens of MB; any one model's full report
is ``npuready report library:NAME`` or a ``kind = "model-report"`` experiment). Unit of work: one model;
the reports' wall seconds go to the timing block (a rerun changes nothing else).
"""
from __future__ import annotations

import time
from typing import Any

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task

STAGES = ("lint", "partition", "cost")


def _rows(name: str, report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    checks = report["checks"]
    for target in report["model"]["targets"]:
        lint = report["lint"]["targets"][target]
        plan = report["partition"]["targets"][target]
        total = report["cost"]["targets"][target]["total"]
        tchecks = checks["targets"][target]
        rows.append({
            "model": name, "target": target, "nodes": report["graph"]["node_count"], "edges": report["model"]["edges"],
            "lint_errors": sum(f["severity"] == "ERROR" for f in lint["findings"]),
            "lint_warnings": sum(f["severity"] == "WARN" for f in lint["findings"]),
            "verdict": plan["verdict"], "npu_segments": plan["npu_segments"],
            "transfer_bytes": plan["transfer_bytes_per_inference"],
            "cycles": total["cycles"], "latency_s": total["latency_s"], "macs": total["macs"],
            "independent_macs": checks.get("macs", {}).get("independent_macs"),
            "mac_ratio": checks.get("macs", {}).get("ratio"),
            "target_checks_ok": all(c["ok"] for c in tchecks.values()),
            "node_count_ok": checks["node_count"]["ok"], "macs_ok": checks.get("macs", {}).get("ok"),
            "checks_ok": checks["all_ok"],
            "yolo_tail_ok": tchecks.get("yolo_tail", {}).get("ok"),
        })
    return rows


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model (all its targets and stages)."""
    return [Task(name, {"model": name}) for name in ctx.params.get("models", [])]


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    from npuready.experiments.runners.model_report import record_tools, report_timings
    from npuready.models.library.recipes import get_recipe
    from npuready.report import ReportRequest, build_report
    from npuready.report.summary import summarize

    name = args["model"]
    targets = tuple(ctx.params.get("targets", ("edge-10", "ethos-u55-128")))
    stages = tuple(ctx.params.get("stages", STAGES))
    ctx.seed("torch.manual_seed (library recipes)", 0)
    record_tools(ctx, get_recipe(name).name)
    start = time.perf_counter()
    report = build_report(ReportRequest(model=f"library:{name}", targets=targets, stages=stages))
    ctx.timing(f"{name}_s", time.perf_counter() - start)
    summary = summarize(report)
    summary.pop("timing", None)
    report_timings(ctx, report, prefix=f"{name}.")  # wall seconds go to the timing block, not the results
    return {"rows": _rows(name, report), "report": summary}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    rows = [row for out in outputs.values() for row in out["rows"]]
    reports = {name: out["report"] for name, out in outputs.items()}
    return {
        "summary": {"evidence": "analysis",
                    "what": "one row per model x target: lint (ONNX structure and the target's op tables, not "
                            "silicon), partition, simulated cost totals and the report's own sanity checks; "
                            "weights are random-initialised, built by the libraries at run time",
                    "cost_evidence": "simulated", "rows": rows,
                    "all_checks_ok": all(r["checks_ok"] for r in rows)},
        "reports": {"evidence": "analysis", "what": "per model a summary of its report (full per-node reports: "
                                                    "npuready report library:NAME)",
                    "sections_evidence": {"lint": "analysis", "partition": "analysis", "cost": "simulated",
                                          "checks": "analysis"},
                    "models": reports},
        "checks_failed": {"evidence": "analysis",
                          "rows": [{"model": r["model"], "target": r["target"], "macs_ok": r["macs_ok"],
                                    "mac_ratio": r["mac_ratio"], "target_checks_ok": r["target_checks_ok"],
                                    "node_count_ok": r["node_count_ok"]} for r in rows if not r["checks_ok"]]},
    }
