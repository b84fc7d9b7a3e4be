"""npuready's per-node placement beside the QNN EP's (``vendor.qnn_log``): agreement and causes.

The HTP run's placement names the nodes onnxruntime left to its CPU provider and the nodes the QNN EP
refused, with its reason; every other node of the QDQ model ran inside a compiled QNN partition. The QDQ
model keeps the float graph's node names (the quantiser adds QuantizeLinear/DequantizeLinear around them),
so each float node (Constants left out) is compared by name: on HTP unless the log puts it on the CPU.
A node npuready folds (its value is known before inference) and the log does not name was folded by
onnxruntime's graph optimisation too, and counts as agreeing. CPU nodes of the QDQ model that are not float
nodes (Q/DQ pairs around a CPU node) are listed apart.
"""
from __future__ import annotations

from typing import Any, Mapping


def compare(nodes: list, devices: Mapping[str, str], placement: Mapping[str, Any]) -> dict[str, Any]:
    """``nodes``: the float graph's nodes (name, op_type); ``devices``: npuready's device per node on the
    mirror; ``placement``: ``QnnPlacement.to_dict()`` of the HTP run."""
    reasons = {r["node"]: r["reason"] for r in placement["refused"]}
    cpu = {c["node"] for c in placement["cpu_nodes"]} | set(reasons)
    compared = [n for n in nodes if n.op_type != "Constant"]
    names = {n.name for n in compared}
    rows, agree, folded = [], 0, 0
    for n in compared:
        ours = devices.get(n.name, "npu")
        theirs = "cpu" if n.name in cpu else ("folded" if ours == "folded" else "npu")
        folded += theirs == "folded"
        if ours == theirs:
            agree += 1
            continue
        if ours == "cpu":
            cause = f"npuready's qnn-htp table leaves {n.op_type} to the CPU; the QNN EP ran it on HTP"
        elif ours == "folded":
            cause = f"npuready folds this {n.op_type}; onnxruntime ran it on its CPU provider"
        else:
            cause = reasons.get(n.name) or (f"onnxruntime left this {n.op_type} to its CPU provider (no refusal "
                                            "logged: outside every QNN partition)")
        rows.append({"node": n.name, "op_type": n.op_type, "npuready": ours, "htp": theirs, "cause": cause})
    return {"evidence": "npuready's qnn-htp mirror placement (simulated) vs the QNN EP's placement (onnxruntime's "
                        "verbose log, x86 HTP simulator)",
            "nodes": len(compared), "agreeing": agree,
            "agreement": round(agree / len(compared), 6) if compared else None, "nodes_folded_by_both": folded,
            "disagreements": rows, "htp_cpu_not_float_nodes": sorted(cpu - names)}
