"""A size-bounded summary of a model report, for corpora of many models.

A full report lists every node per target (placements, cost rows, findings): hundreds of KB per model,
tens of MB for a corpus. The summary keeps per target what a corpus table needs — lint counts per rule
and severity, the partition's segments (without node lists), crossings, cost totals, cycles per op type
and the ten costliest layers — plus the report's sanity checks. The full report of any one model is
``npuready report library:NAME`` or a ``kind = "model-report"`` experiment.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

TOP_LAYERS = 10


def _lint(lint: dict[str, Any]) -> dict[str, Any]:
    by_rule = Counter(f"{f['rule']} {f['severity']}" for f in lint["findings"])
    return {"errors": sum(f["severity"] == "ERROR" for f in lint["findings"]),
            "warnings": sum(f["severity"] == "WARN" for f in lint["findings"]),
            "by_rule": dict(sorted(by_rule.items()))}


def _partition(plan: dict[str, Any]) -> dict[str, Any]:
    return {"verdict": plan["verdict"], "npu_segments": plan["npu_segments"],
            "segments": [{"name": s["name"], "device": s["device"], "nodes": len(s["nodes"]),
                          "macs": s["macs"]} for s in plan["segments"]],
            "splitter_ops": sorted({s["op_type"] for s in plan["splitters"]}),
            "crossings": len(plan["crossings"]), "transfer_bytes_per_inference": plan["transfer_bytes_per_inference"],
            "folded": len(plan["folded"]), "missing_cpu_code": plan["missing_cpu_code"]}


def _cost(cost: dict[str, Any]) -> dict[str, Any]:
    by_op: Counter = Counter()
    for layer in cost["layers"]:
        by_op[layer["op_type"]] += layer["cycles"]
    top = sorted(cost["layers"], key=lambda layer: -layer["cycles"])[:TOP_LAYERS]
    total = cost["total"]
    return {"total": {k: total[k] for k in ("cycles", "npu_cycles", "latency_s", "macs", "transfer_bytes",
                                             "npu_utilisation", "layers_npu", "layers_cpu")},
            "cycles_by_op_type": dict(by_op.most_common()),
            "top_layers": [{k: layer[k] for k in ("node", "op_type", "device", "cycles", "macs", "bound")}
                           for layer in top]}


def target_summaries(report: dict[str, Any]) -> dict[str, Any]:
    """Per target: lint / partition / cost summaries of the report's full lists."""
    targets = {}
    for t in report["model"]["targets"]:
        row: dict[str, Any] = {}
        if "lint" in report:
            row["lint"] = _lint(report["lint"]["targets"][t])
        if "partition" in report:
            row["partition"] = _partition(report["partition"]["targets"][t])
        if "cost" in report:
            row["cost"] = _cost(report["cost"]["targets"][t])
        targets[t] = row
    return targets


def summarize(report: dict[str, Any]) -> dict[str, Any]:
    """Per target: lint / partition / cost summaries (evidence as in the full report) and the checks."""
    targets = target_summaries(report)
    graph = report["graph"]
    return {"model": {k: report["model"][k] for k in ("label", "recipe", "weights", "sha256")},
            "graph": {"node_count": graph["node_count"], "op_types": graph["op_types"],
                      "inputs": graph["inputs"], "outputs": graph["outputs"]},
            "targets": targets, "checks": report["checks"], "timing": report["timing"]}
