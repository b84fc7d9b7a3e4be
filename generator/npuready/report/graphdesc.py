"""A compact, renderer-ready description of an ONNX graph: nodes, edges, op types, shapes, small attributes.

Nodes of the main graph are listed in the graph view's topological order with a stable ``id`` (their
index). Edges connect a producer to each consumer of a tensor (graph inputs come from ``input:<name>``,
graph outputs go to ``output:<name>``); initialisers are not edges, they are counted on their node.
Subgraphs of If/Loop/Scan are collapsed into their node: a summary (scope, node count, op histogram)
instead of their nodes, so a renderer draws one box.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from npuready.graph import Graph, Node

# attribute values worth showing in a node box / drill-down: scalars and short lists, never tensors or graphs
_MAX_LIST = 8


def _attr(value: Any) -> Any | None:
    if isinstance(value, (bool, int, float, str)):
        return value if not isinstance(value, str) or len(value) <= 64 else value[:61] + "..."
    if isinstance(value, list) and len(value) <= _MAX_LIST and all(isinstance(v, (int, float, str)) for v in value):
        return value
    return None


def _shape(graph: Graph, name: str) -> list | None:
    info = graph.tensors.get(name)
    if info is None or info.shape is None:
        return None
    return [d if isinstance(d, int) else str(d) for d in info.shape]


def _dtype(graph: Graph, name: str) -> str | None:
    info = graph.tensors.get(name)
    return info.dtype if info is not None else None


def _subgraph_summary(sub: Graph) -> dict[str, Any]:
    ops = Counter(n.op_type for _, n in sub.walk())
    return {"scope": sub.scope, "nodes": len(sub.nodes), "nodes_nested": sum(ops.values()),
            "op_types": dict(sorted(ops.items()))}


def _node(graph: Graph, node: Node) -> dict[str, Any]:
    attrs = {k: v for k, v in ((k, _attr(v)) for k, v in node.attrs.items()) if v is not None}
    return {
        "id": node.index, "name": node.name, "op_type": node.op_type, "domain": node.domain,
        "inputs": [i for i in node.inputs if i and i not in graph.initializer_names],
        "weights": [i for i in node.inputs if i in graph.initializer_names],
        "outputs": list(node.outputs),
        "output_shapes": [_shape(graph, o) for o in node.outputs],
        "attrs": attrs,
        "subgraphs": [_subgraph_summary(s) for s in node.subgraphs],
    }


def describe(graph: Graph) -> dict[str, Any]:
    """The compact graph description (main graph; subgraphs collapsed). Linear in nodes, edges and inputs:
    every lookup table is built once."""
    producer = {out: n.index for n in graph.nodes for out in n.outputs if out}
    graph_inputs = frozenset(i.name for i in graph.inputs)
    edges = []
    for n in graph.nodes:
        for t in dict.fromkeys(i for i in n.inputs if i and i not in graph.initializer_names):
            src = producer.get(t)
            if src is None and t not in graph_inputs:
                continue  # an outer-scope or constant-less name: not drawn
            edges.append({"from": src if src is not None else f"input:{t}", "to": n.index, "tensor": t,
                          "shape": _shape(graph, t), "dtype": _dtype(graph, t)})
    for o in graph.outputs:
        if o.name in producer:
            edges.append({"from": producer[o.name], "to": f"output:{o.name}", "tensor": o.name,
                          "shape": _shape(graph, o.name), "dtype": _dtype(graph, o.name)})
    ops = Counter(n.op_type for n in graph.nodes)
    return {
        "inputs": [{"name": i.name, "shape": _shape(graph, i.name), "dtype": i.dtype} for i in graph.inputs],
        "outputs": [{"name": o.name, "shape": _shape(graph, o.name), "dtype": o.dtype} for o in graph.outputs],
        "name": graph.model.graph.name,
        "node_count": len(graph.nodes),
        "node_count_with_subgraphs": sum(1 for _ in graph.walk()),
        "op_types": dict(sorted(ops.items())),
        "nodes": [_node(graph, n) for n in graph.nodes],
        "edges": edges,
        "collapsed_subgraphs": sum(len(n.subgraphs) for n in graph.nodes),
    }
