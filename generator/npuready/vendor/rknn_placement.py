"""npuready's per-node placement beside librknnc's layer table (``vendor.rknn_log``): agreement and causes.

librknnc compiles a rewritten graph: it fuses a node into a neighbour (``ConvAddRelu`` carries the Add and
the Relu), splits one (a LayerNorm's ``_mm#3``..``_mm#5`` layers), lowers one (``_2conv0``) and adds helpers
(``Reshape:logits_mm_tp_rs`` after the classifier). A layer is named ``<op>:<name><suffix>`` where ``name``
is an ONNX node name or an ONNX tensor name; ``owner`` maps it back to the node (the tensor's producer),
taking the longest node or tensor name the layer name starts with, followed by nothing, ``_`` or ``#``.

Per ONNX node (Constants left out, as in the Vela comparison) RKNN's side is:
- ``npu`` / ``cpu``: a layer named after it runs there (a node with layers on both is on the NPU, its CPU
  layers are listed as ``cpu_helper_layers``: they move data, the node's arithmetic runs on the NPU);
- otherwise the node has no layer of its own: folded when npuready folds it too (its value is known before
  inference), else fused into a neighbour and placed with the nearest named node upstream (then downstream),
  recorded as ``inferred``.
npuready's side is the cost report's device (npu | cpu | folded). Every disagreement is listed with its cause.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

IO_LAYERS = ("InputOperator", "OutputOperator")


def owner(layer_name: str, node_names: Iterable[str], producers: Mapping[str, str]) -> str | None:
    """The ONNX node a layer's name (after ``<op>:``) belongs to, or None."""
    name = layer_name.split(":", 1)[1] if ":" in layer_name else layer_name
    best: tuple[int, str] | None = None
    for cand, node in [(n, n) for n in node_names] + list(producers.items()):
        if cand and name.startswith(cand) and (len(name) == len(cand) or name[len(cand)] in "_#"):
            if best is None or len(cand) > best[0]:
                best = (len(cand), node)
    return best[1] if best else None


def _neighbour(node, named: Mapping[str, str], by_name: Mapping[str, Any], producers: Mapping[str, str],
               consumers: Mapping[str, list[str]]) -> str | None:
    """Device of the nearest node with a layer of its own: upstream first (a Relu fused into its Conv), then
    downstream."""
    for step in (lambda n: [producers[i] for i in n.inputs if i in producers],
                 lambda n: [c for o in n.outputs for c in consumers.get(o, [])]):
        seen, frontier = {node.name}, [node.name]
        while frontier:
            nxt = []
            for name in frontier:
                for m in step(by_name[name]):
                    if m in seen:
                        continue
                    if m in named:
                        return named[m]
                    seen.add(m)
                    nxt.append(m)
            frontier = nxt
    return None


def compare(nodes: list, devices: Mapping[str, str], layers: list[Mapping[str, Any]]) -> dict[str, Any]:
    """``nodes``: the float graph's nodes (name, op_type, inputs, outputs); ``devices``: npuready's device per
    node; ``layers``: the layer table rows (``RknnLayer.to_dict()``)."""
    by_name = {n.name: n for n in nodes}
    producers = {o: n.name for n in nodes for o in n.outputs if o}
    consumers: dict[str, list[str]] = {}
    for n in nodes:
        for i in n.inputs:
            consumers.setdefault(i, []).append(n.name)
    names = [n.name for n in nodes if n.name]
    per_node: dict[str, list[Mapping[str, Any]]] = {}
    io, unmapped = [], []
    for layer in layers:
        if layer["op_type"] in IO_LAYERS:
            io.append({"layer": layer["full_name"], "target": layer["target"]})
            continue
        node = owner(layer["full_name"], names, producers)
        if node is None:
            unmapped.append({"layer": layer["full_name"], "target": layer["target"]})
        else:
            per_node.setdefault(node, []).append(layer)
    named = {node: ("npu" if any(x["target"] == "NPU" for x in ls) else "cpu") for node, ls in per_node.items()}
    helpers = [{"layer": x["full_name"], "node": node, "op_type": x["op_type"]}
               for node, ls in per_node.items() if named[node] == "npu" for x in ls if x["target"] == "CPU"]
    compared = [n for n in nodes if n.op_type != "Constant"]
    rows, agree, agree_named, inferred, folded = [], 0, 0, 0, 0
    for n in compared:
        ours = devices.get(n.name, "npu")
        if n.name in named:
            theirs = named[n.name]
        elif ours == "folded":
            theirs, folded = "folded", folded + 1
        else:
            theirs, inferred = _neighbour(n, named, by_name, producers, consumers) or "npu", inferred + 1
        if ours == theirs:
            agree += 1
            agree_named += n.name in named
            continue
        rows.append({"node": n.name, "op_type": n.op_type, "npuready": ours, "rknn": theirs,
                     "rknn_layers": [x["full_name"] for x in per_node.get(n.name, [])],
                     "cause": _cause(n.op_type, ours, theirs)})
    return {"evidence": "npuready's rk3588 mirror placement (simulated) vs librknnc's layer table (its compiler's "
                        "placement, no device)",
            "nodes": len(compared), "agreeing": agree,
            "agreement": round(agree / len(compared), 6) if compared else None,
            "nodes_with_layers": sum(1 for n in compared if n.name in named), "agreeing_with_layers": agree_named,
            "nodes_fused_inferred": inferred,
            "nodes_folded_by_both": folded, "disagreements": rows, "cpu_helper_layers": helpers,
            "io_layers": io, "unmapped_layers": unmapped}


def _cause(op_type: str, ours: str, theirs: str) -> str:
    if ours == "folded":
        return (f"npuready folds this {op_type} (its value is known before inference); librknnc runs it as a layer "
                f"on the {theirs.upper()}")
    if theirs == "folded":
        return f"librknnc has no layer for this {op_type}; npuready runs it on the {ours.upper()}"
    if ours == "cpu":
        return (f"npuready's rk3588 table leaves {op_type} to the CPU; librknnc compiles it for the NPU "
                "(the support list does not name it, or a constraint npuready checks fails)")
    return (f"RKNN-Toolkit2's list converts {op_type} (npuready: NPU) but librknnc runs it on its CPU fallback; "
            "the list says what the toolkit converts, not where it runs")
