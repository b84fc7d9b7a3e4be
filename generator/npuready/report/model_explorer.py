"""A report's per-node numbers as Model Explorer node data, so its users load npuready's overlays there.

Google's Model Explorer (``ai-edge-model-explorer``) colours a graph from "node data" JSON files: for
each graph id, ``results`` maps a node key to ``{"value": number}``, with an optional ``gradient`` (stops 0
and 1 at least) or ``thresholds`` (``{"value", "bgColor"}`` upper bounds) to colour them
(``model_explorer/node_data_builder.py``: ``ModelNodeData`` → ``GraphNodeData`` → ``NodeDataResult``). A
node key may be any output tensor name of the node, which is how the ONNX adapter
(``model-explorer-onnx``) matches nodes; its graph id is the ONNX graph's name.

Per target, three files: ``<target>.cycles.json`` (simulated cycles per node, a white-to-red gradient),
``<target>.placement.json`` (1 = NPU, 0 = CPU, 0.5 = folded away at compile time, by thresholds) and
``<target>.findings.json`` (ERROR + WARN lint findings on the node). Lint rests on ONNX structure and the
target's declarations, not NPU silicon; cycles are simulated — the same evidence as the report.
"""
from __future__ import annotations

from typing import Any

from npuready.errors import InputError

PLACEMENT = {"npu": 1.0, "folded": 0.5}  # anything else (the CPU) is 0
PLACEMENT_COLOURS = [{"value": 0.0, "bgColor": "#f4a259"}, {"value": 0.5, "bgColor": "#d9dde3"},
                     {"value": 1.0, "bgColor": "#8fd19e"}]
HEAT = [{"stop": 0.0, "bgColor": "#ffffff"}, {"stop": 1.0, "bgColor": "#d7301f"}]
FINDINGS = [{"value": 0, "bgColor": "#ffffff"}, {"value": 1_000_000, "bgColor": "#f6c343"}]


def _keys(result: dict[str, Any]) -> dict[str, str]:
    """Node name -> the node's first output tensor name (Model Explorer's node key)."""
    return {n["name"]: n["outputs"][0] for n in result["graph"]["nodes"] if n.get("outputs")}


def node_data(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """File name -> ModelNodeData JSON (graph id -> GraphNodeData) for every target of the report."""
    graph_id = result.get("graph", {}).get("name")
    if not isinstance(graph_id, str):
        raise InputError("this report has no graph name (written by an older npuready): run 'npuready report' again")
    keys = _keys(result)
    files: dict[str, dict[str, Any]] = {}
    for target, cost in sorted(result.get("cost", {}).get("targets", {}).items()):
        layers = [x for x in cost["layers"] if x["node"] in keys]
        cycles = {keys[x["node"]]: {"value": x["cycles"]} for x in layers}
        placed = {keys[x["node"]]: {"value": PLACEMENT.get(x["device"], 0.0)} for x in layers}
        files[f"{target}.cycles.json"] = {graph_id: {"name": f"npuready cycles on {target} (simulated)",
                                                     "results": cycles, "gradient": HEAT}}
        files[f"{target}.placement.json"] = {graph_id: {"name": f"npuready placement on {target} (1 NPU, 0 CPU)",
                                                        "results": placed, "thresholds": PLACEMENT_COLOURS}}
    for target, lint in sorted(result.get("lint", {}).get("targets", {}).items()):
        counts = {key: 0 for key in keys.values()}
        for f in lint["findings"]:
            if f.get("node") in keys and f.get("severity") in ("ERROR", "WARN"):
                counts[keys[f["node"]]] += 1
        files[f"{target}.findings.json"] = {graph_id: {
            "name": f"npuready lint findings on {target} (ERROR + WARN)",
            "results": {k: {"value": v} for k, v in counts.items()}, "thresholds": FINDINGS}}
    return files

