"""The report size budget: a model above ``max_nodes`` graph nodes (or as many edges, graph inputs or graph
outputs) gets a summarised report instead of one that lists every node, edge and per-node record.

A 200,000-node chain listed in full made a 443 MB ``result.json`` and a 224 MB page. Summarised, the report keeps
its first ``max_nodes`` nodes (graph view order) with the edges between them and their per-target records
(placements, segment members, cost layers, lint findings), every other list cut to ``max_nodes`` entries, and
all totals, counts and checks as computed on the whole graph (they are computed before the cut). What was cut
is stated in the ``summarised`` section: the budget, the node count, and per JSON pointer the full length of
each list that was cut, plus per target the size-bounded summary (``report.summary``) of the full lists.
``npuready report --max-report-nodes N`` sets the budget.
"""
from __future__ import annotations

from typing import Any

from npuready.inputs.budget import MAX_REPORT_NODES

DEFAULT_MAX_REPORT_NODES = MAX_REPORT_NODES  # the documented default of --max-report-nodes
_GRAPH_LISTS = ("nodes", "edges", "inputs", "outputs")


def over_budget(desc: dict[str, Any], max_nodes: int) -> bool:
    """Whether the graph description lists more than ``max_nodes`` nodes, edges, inputs or outputs."""
    return any(len(desc[key]) > max_nodes for key in _GRAPH_LISTS)


def _pointer(path: tuple) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


class _Cutter:
    """Walks the report once; filters per-node records to the kept nodes and cuts every list to the budget."""

    def __init__(self, max_nodes: int, kept: frozenset[str]):
        self.max = max_nodes
        self.kept = kept
        self.cuts: dict[str, int] = {}

    def list(self, items: list, path: tuple, key: Any) -> list:
        full = len(items)
        if items and all(isinstance(i, dict) and "node" in i for i in items):  # per-node records
            items = [i for i in items if not isinstance(i["node"], str) or i["node"] in self.kept]
        elif key == "nodes" and items and all(isinstance(i, str) for i in items):  # a segment's member names
            items = [i for i in items if i in self.kept]
        items = items[:self.max]
        if len(items) < full:
            self.cuts[_pointer(path)] = full
        return [self.value(v, path + (k,), k) for k, v in enumerate(items)]

    def value(self, value: Any, path: tuple, key: Any) -> Any:
        if isinstance(value, dict):
            return {k: self.value(v, path + (k,), k) for k, v in value.items()}
        if isinstance(value, list):
            return self.list(value, path, key)
        return value


def _graph(desc: dict[str, Any], cutter: _Cutter) -> dict[str, Any]:
    """The first nodes, the edges between them (and from inputs / to outputs), each within the budget."""
    nodes = desc["nodes"][:cutter.max]
    ids = {n["id"] for n in nodes}
    edges = [e for e in desc["edges"] if (e["from"] in ids or isinstance(e["from"], str)) and
             (e["to"] in ids or isinstance(e["to"], str))][:cutter.max]
    kept = {"nodes": nodes, "edges": edges}
    out = {}
    for key, value in desc.items():
        if key in kept:
            if len(kept[key]) < len(value):
                cutter.cuts[_pointer(("graph", key))] = len(value)
            out[key] = [cutter.value(item, ("graph", key, i), i) for i, item in enumerate(kept[key])]
        else:
            out[key] = cutter.value(value, ("graph", key), key)
    return out


def summarise(result: dict[str, Any], max_nodes: int) -> dict[str, Any]:
    """``result`` within the budget (unchanged when the graph is within it); see the module text."""
    desc = result["graph"]
    if not over_budget(desc, max_nodes):
        return result
    from npuready.report.summary import target_summaries

    kept = frozenset(n["name"] for n in desc["nodes"][:max_nodes])
    cutter = _Cutter(max_nodes, kept)
    out = {k: (_graph(v, cutter) if k == "graph" else cutter.value(v, (k,), k)) for k, v in result.items()}
    out["summarised"] = {
        "evidence": "analysis", "max_report_nodes": max_nodes, "node_count": desc["node_count"],
        "nodes_listed": len(kept), "edge_count": len(desc["edges"]), "input_count": len(desc["inputs"]),
        "output_count": len(desc["outputs"]), "cut_lists": dict(sorted(cutter.cuts.items())),
        "targets": target_summaries(result),
        "note": f"{desc['node_count']:,} nodes, {len(desc['edges']):,} edges, {len(desc['inputs']):,} graph inputs; "
                f"listed: the first {len(kept):,} nodes and at most {max_nodes:,} entries per list (totals and "
                "checks cover the whole graph); --max-report-nodes N lists more",
    }
    return out
