"""Sanity checks a model report states about itself (and tests re-check).

- ``node_count``: the graph description lists exactly the ONNX main graph's nodes.
- ``cycles_sum`` (per target): NPU layers' cycles sum to the NPU total exactly; all layers' cycles plus the
  transfers' cycles equal the end-to-end total up to rounding (one cycle per converted host term).
- ``macs`` (library recipes): the cost model's MAC total against torch's own FLOP counter (``macs.py``),
  limit 1%. Other engineers are still changing shape resolution; a miss is reported, not patched over.
- ``yolo_tail`` (ultralytics detect/segment/pose): the head's box decode — every node of the head module
  (``/model.<last>/``) downstream of its DFL (distance-to-box, stride scaling, the output concat), the
  part NMS-type post-processing starts from — is placed on the CPU in the tail segment (or folded).
  The placement reasons are listed, so a decode that lands in the tail only because a shape was left
  unresolved is visible as such.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

MAC_LIMIT = 0.01
MAC_PERCENT_DIVISOR = 100  # |cost - independent| <= independent / 100, in integers
_HEAD_BRANCHES = re.compile(r"^(cv\d|proto|one2one)")


def node_count(desc: dict[str, Any], onnx_nodes: int) -> dict[str, Any]:
    return {"report_nodes": desc["node_count"], "onnx_nodes": onnx_nodes, "ok": desc["node_count"] == onnx_nodes}


def cycles_sum(cost: dict[str, Any]) -> dict[str, Any]:
    total = cost["total"]
    npu = sum(layer["cycles"] for layer in cost["layers"] if layer["device"] == "npu")
    cpu = sum(layer["cycles"] for layer in cost["layers"] if layer["device"] == "cpu")
    transfer = round(total["transfer_s"] * cost["clock_mhz"] * 1e6)
    slack = 2 + sum(1 for layer in cost["layers"] if layer["device"] == "cpu")
    rest = total["cycles"] - npu - cpu - transfer
    return {"npu_layers_cycles": npu, "npu_total_cycles": total["npu_cycles"], "cpu_layers_cycles": cpu,
            "transfer_cycles": transfer, "total_cycles": total["cycles"], "rounding_difference": rest,
            "ok": npu == total["npu_cycles"] and abs(rest) <= slack}


def macs(cost_macs: int, independent: int | None, how: str) -> dict[str, Any]:
    if not independent:
        return {"cost_model_macs": cost_macs, "independent_macs": None, "independent": how, "ok": None}
    ratio = cost_macs / independent
    return {"cost_model_macs": cost_macs, "independent_macs": independent, "independent": how,
            "ratio": round(ratio, 6), "limit": MAC_LIMIT,
            "ok": abs(cost_macs - independent) * MAC_PERCENT_DIVISOR <= independent}


def head_scope(desc: dict[str, Any]) -> str | None:
    """The ultralytics head module's scope (``/model.<last>/``), read off the node names."""
    indices = [int(m.group(1)) for n in desc["nodes"] if (m := re.match(r"^/model\.(\d+)/", n["name"]))]
    return f"/model.{max(indices)}/" if indices else None


def decode_nodes(desc: dict[str, Any]) -> list[str]:
    scope = head_scope(desc)
    if scope is None:
        return []
    dfl = scope + "dfl/"
    names = {n["id"]: n["name"] for n in desc["nodes"]}
    users: dict[Any, list[Any]] = {}
    for e in desc["edges"]:
        users.setdefault(e["from"], []).append(e["to"])
    todo = [n["id"] for n in desc["nodes"] if n["name"].startswith(dfl)]
    seen: set = set()
    while todo:
        for user in users.get(todo.pop(), []):
            if user in names and user not in seen and names[user].startswith(scope):
                seen.add(user)
                todo.append(user)
    return [names[i] for i in sorted(seen) if not names[i].startswith(dfl)]


def yolo_tail(desc: dict[str, Any], partition: dict[str, Any]) -> dict[str, Any]:
    decode = decode_nodes(desc)
    segment_of = {node: s["name"] for s in partition["segments"] for node in s["nodes"]}
    placement = {p["node"]: p for p in partition["placements"]}
    outside = [n for n in decode if not (segment_of.get(n) == "tail" or placement[n]["device"] == "folded")]
    reasons = Counter(placement[n]["reason"].split(" (")[0] for n in decode)
    return {"head_scope": head_scope(desc), "decode_nodes": len(decode),
            "in_cpu_tail_or_folded": len(decode) - len(outside), "not_in_tail": outside[:50],
            "placement_reasons": dict(sorted(reasons.items())), "ok": bool(decode) and not outside}


def norm_placement(graph, target, partition: dict[str, Any]) -> dict[str, Any] | None:
    """Every LayerNormalization is placed as the target's severity policy says: on the NPU where the target
    declares it runs it (natively or through a lowering), on the CPU where it cannot
    (``npuready.targets.support.node_support``). None when the graph has no LayerNormalization."""
    from npuready.targets.support import node_support

    norms = [n for n in graph.nodes if n.op_type == "LayerNormalization"]
    if not norms:
        return None
    placement = {p["node"]: p for p in partition["placements"]}
    modes: Counter = Counter()
    wrong = []
    for node in norms:
        support = node_support(graph, node, target)
        modes[support.mode] += 1
        device = placement[node.name]["device"]
        if placement[node.name]["reason"].startswith("cpu: edges policy"):
            continue  # pre/post-processing moved to the host on purpose
        if (device == "npu") != support.runs:
            wrong.append({"node": node.name, "device": device, "target_runs_it": support.runs, "how": support.how})
    return {"layer_norms": len(norms), "target_modes": dict(sorted(modes.items())), "not_as_declared": wrong[:50],
            "ok": not wrong}
