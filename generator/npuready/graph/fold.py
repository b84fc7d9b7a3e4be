"""Compile-time folding: which nodes compute a value known before inference, and the values of shape computations.

A node is **folded** when it is a ``Constant``, a ``Shape``/``Size`` of a tensor whose shape is static, or a
deterministic standard op (no subgraphs) whose inputs are all initializers or folded values — e.g. the
Shape → Gather → Concat chain that computes a Reshape target. A compiler evaluates them once; they cost
nothing at run time and never cross a CPU↔NPU boundary. The graph itself is not rewritten.

A folded node is a **shape computation** when a ``Shape``/``Size`` node feeds it (or it is one): its value
follows from the resolved input shapes. ``value`` evaluates those with the ONNX reference implementation of
each op (``onnx.reference``), one node at a time, memoised on the graph; folded nodes that only transform
initializers (e.g. DequantizeLinear of a weight) are evaluated only where a shape computation reads them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from npuready.graph import families

if TYPE_CHECKING:
    from npuready.graph.view import Graph, Node

# Ops whose output is not a function of their inputs: never folded at compile time.
NONDETERMINISTIC = families.RANDOM
SHAPE_SOURCES = families.SHAPE_SOURCES
MAX_FOLDED_ELEMENTS = 1 << 16  # a shape computation's value is small; larger ones are left to run time


def folded_nodes(graph: "Graph") -> tuple[frozenset[str], frozenset[str]]:
    """(names of the folded nodes, names of those that are shape computations) of ``graph``'s own nodes."""
    const_values = set(graph.initializer_names)
    shape_values: set[str] = set()
    folded: set[str] = set()
    shape_ops: set[str] = set()
    for node in graph.nodes:
        if not node.is_standard or node.subgraphs or node.op_type in NONDETERMINISTIC:
            continue
        real = [i for i in node.inputs if i]
        if node.op_type == "Constant":
            ok = True
        elif node.op_type in SHAPE_SOURCES:
            ok = bool(real) and graph.info(real[0]).is_static
        else:
            ok = bool(real) and all(i in const_values or _outer_constant(graph, i) for i in real)
        if not ok:
            continue
        folded.add(node.name)
        outs = [o for o in node.outputs if o]
        const_values.update(outs)
        if node.op_type in SHAPE_SOURCES or any(i in shape_values for i in real):
            shape_ops.add(node.name)
            shape_values.update(outs)
    return frozenset(folded), frozenset(shape_ops)


def _outer_constant(graph: "Graph", name: str) -> bool:
    return graph.parent is not None and name not in graph.producers and graph.parent.is_constant(name)


def value(graph: "Graph", node: "Node", output: str) -> np.ndarray | None:
    """The value of ``output`` of the folded shape computation ``node``, or None when it cannot be computed."""
    if node.op_type in SHAPE_SOURCES:
        return _shape_value(graph, node)
    declared = graph.info(output).shape  # checked before evaluating: a [2^30] ConstantOfShape is never built
    if (declared and all(isinstance(d, int) for d in declared)
            and int(np.prod(declared, dtype=np.int64)) > MAX_FOLDED_ELEMENTS):
        return None
    feeds = {}
    for i in node.inputs:
        if i:
            v = _input_value(graph, i)
            if v is None:
                return None
            feeds[i] = v
    try:
        from onnx.reference import ReferenceEvaluator

        opset = graph.opsets.get("", 17)
        results = ReferenceEvaluator(node.proto, opsets={"": opset}).run(None, feeds)
    except Exception:  # an op the reference implementation does not cover, or odd attributes
        return None
    for name, result in zip(node.outputs, results):
        if name == output:
            arr = np.asarray(result)
            return arr if arr.size <= MAX_FOLDED_ELEMENTS else None
    return None


def _input_value(graph: "Graph", name: str) -> np.ndarray | None:
    """An input of a shape computation: a constant, a shape computation's output, or the output of a folded
    node that only transforms constants (``Unsqueeze`` of a Constant group count), evaluated the same way."""
    p = graph.producers.get(name)
    if p is None or p.name in graph.shape_folded or p.name not in graph.folded or p.op_type == "Constant":
        return graph.constant(name)
    memo = graph.__dict__.setdefault("_folded_inputs", {})  # each such value is evaluated once per graph
    if name not in memo:
        memo[name] = value(graph, p, name)
    return memo[name]


def _shape_value(graph: "Graph", node: "Node") -> np.ndarray | None:
    shape = graph.info(node.inputs[0]).shape
    if shape is None or not all(isinstance(d, int) for d in shape):
        return None
    if node.op_type == "Size":
        return np.array(int(np.prod(shape, dtype=np.int64)), np.int64)
    start, end = node.attr("start", 0), node.attr("end", None)
    return np.array(list(shape)[slice(start, end)], np.int64)
