"""Multiply-accumulates of the MAC-heavy operators (Conv, ConvTranspose, Gemm, MatMul) from static shapes.

A small stand-in for the fuller cost model: only these four ops count; everything else is 0.
Unknown shapes give 0 (and ``macs_known`` says so).
"""
from __future__ import annotations

import math

from npuready.graph import Graph, Node, families

MAC_OPS = families.MAC


def _shape(graph: Graph, name: str) -> tuple[int, ...] | None:
    info = graph.tensors.get(name) if name else None
    return info.shape if info is not None and info.is_static else None


def node_macs(graph: Graph, node: Node) -> int | None:
    """MACs of one node per inference; 0 for ops that are not MAC-heavy; None when shapes are unknown."""
    if node.op_type not in MAC_OPS or not node.is_standard:
        return 0
    if node.op_type in ("Conv", "ConvTranspose"):
        x, w = _shape(graph, node.inputs[0]), _shape(graph, node.inputs[1] if len(node.inputs) > 1 else "")
        y = _shape(graph, node.outputs[0])
        if x is None or w is None or y is None:
            return None
        kernel = math.prod(w[2:])
        if node.op_type == "Conv":  # w: [Cout, Cin/group, k...]; each output element sums Cin/group * k
            return math.prod(y) * w[1] * kernel
        # ConvTranspose w: [Cin, Cout/group, k...]; each input element scatters into Cout/group * k outputs
        return math.prod(x) * w[1] * kernel
    if node.op_type == "Gemm":
        a, b = _shape(graph, node.inputs[0]), _shape(graph, node.inputs[1])
        if a is None or b is None or len(a) != 2 or len(b) != 2:
            return None
        m, k = (a[1], a[0]) if node.attr("transA", 0) else a
        n = b[0] if node.attr("transB", 0) else b[1]
        return m * n * k
    a, b, y = _shape(graph, node.inputs[0]), _shape(graph, node.inputs[1]), _shape(graph, node.outputs[0])
    if a is None or b is None or y is None or not a:
        return None
    k = a[-1]
    return math.prod(y) * k  # MatMul: every output element is a K-long dot product


def graph_macs(graph: Graph) -> dict[str, int | None]:
    """node name → MACs for every main-graph node."""
    return {n.name: node_macs(graph, n) for n in graph.nodes}
