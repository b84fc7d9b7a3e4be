"""Our cost on a Vela mirror target, lined up with Vela's per-layer estimate of the same model.

Used by the `cost-vs-vela` experiment and by `npuready export` (which compiles the artifact it wrote):
per Vela operator (its tensor, the ONNX nodes that produce it, our cycles and Vela's), per op category
and in total. Our cycles are simulated; Vela's are Vela's own performance estimate (also a model).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from npuready.cost import estimate, vela


def compare(graph, target, rows: list[dict], summary: dict, ours=None) -> dict[str, Any]:
    """npuready's cost (``ours``: a ``CostReport`` of ``graph`` on ``target``, estimated here when not given)
    beside Vela's per-layer rows and summary."""
    ours = ours if ours is not None else estimate(graph, target)
    by_node = {layer.node: layer for layer in ours.layers}
    ops = vela.vela_ops(rows, graph)
    groups = vela.node_groups(graph, {op["tensor"] for op in ops})
    members: dict[str, list[str]] = defaultdict(list)
    for node in graph.nodes:
        if node.name in groups:
            members[groups[node.name]].append(node.name)
    layers = []
    for op in ops:
        nodes = members.get(op["tensor"], [])
        mine = sum(by_node[n].cycles for n in nodes if by_node[n].device == "npu")
        info = graph.info(op["tensor"])
        layers.append({"tensor": op["tensor"], "category": op["category"], "vela_operator": op["original_operator"],
                       "ofm_elems": info.numel,
                       "vela_ops": op["vela_ops"], "nodes": nodes, "ours_cycles": mine,
                       "reference_cycles": op["cycles"],
                       "ratio": round(mine / op["cycles"], 6) if op["cycles"] else None,
                       "ours_bound": [by_node[n].bound for n in nodes if by_node[n].cycles]})
    per_cat: dict[str, dict[str, Any]] = {}
    for cat in vela.CATEGORIES:
        sel = [x for x in layers if x["category"] == cat]
        if not sel:
            continue
        o, r = sum(x["ours_cycles"] for x in sel), sum(x["reference_cycles"] for x in sel)
        per_cat[cat] = {"ours_cycles": o, "reference_cycles": r, "ratio": round(o / r, 6) if r else None,
                        "layers": len(sel)}
    covered = {n for op in ops for n in members.get(op["tensor"], [])}
    missed = sum(layer.cycles for layer in ours.layers if layer.device == "npu" and layer.node not in covered)
    ours_total = sum(x["ours_cycles"] for x in layers) + missed
    ref_total = int(summary["cycles_total"])
    return {"ours_cycles": ours_total, "reference_cycles": ref_total, "ratio": round(ours_total / ref_total, 6),
            "ours_unmatched_cycles": missed, "per_category": per_cat, "layers": layers,
            "vela_summary": {k: summary[k] for k in ("cycles_npu", "cycles_sram_access", "cycles_dram_access",
                                                      "cycles_off_chip_flash_access", "cycles_total", "nn_macs",
                                                      "total_original_weights", "total_npu_encoded_weights")}}
