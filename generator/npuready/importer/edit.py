"""Small helpers the rewrites share: constants, consumers, fresh names and renaming a value everywhere."""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import onnx
from onnx import numpy_helper


def initializers(graph: onnx.GraphProto) -> dict[str, onnx.TensorProto]:
    return {t.name: t for t in graph.initializer}


def producers(graph: onnx.GraphProto) -> dict[str, onnx.NodeProto]:
    return {o: n for n in graph.node for o in n.output if o}


def consumers(graph: onnx.GraphProto) -> dict[str, list[onnx.NodeProto]]:
    """Value name → the main-graph nodes reading it (a node reading it through a subgraph counts too)."""
    out: dict[str, list[onnx.NodeProto]] = defaultdict(list)
    for n in graph.node:
        for name in set(n.input) | _captured(n):
            if name:
                out[name].append(n)
    return out


def _captured(node: onnx.NodeProto) -> set[str]:
    names: set[str] = set()
    for sub in _subgraphs(node):
        for m in sub.node:
            names.update(m.input)
            names.update(_captured(m))
        names.update(o.name for o in sub.output)
    return names


def _subgraphs(node: onnx.NodeProto):
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            yield a.g
        elif a.type == onnx.AttributeProto.GRAPHS:
            yield from a.graphs


def constant_node_value(node: onnx.NodeProto) -> np.ndarray | None:
    """The value of a ``Constant`` node (any of its attribute forms), or None."""
    if node.op_type != "Constant" or node.domain not in ("", "ai.onnx") or not node.attribute:
        return None
    a = node.attribute[0]
    if a.name == "value":
        return numpy_helper.to_array(a.t)
    if a.name == "value_float":
        return np.array(a.f, np.float32)
    if a.name == "value_floats":
        return np.array(list(a.floats), np.float32)
    if a.name == "value_int":
        return np.array(a.i, np.int64)
    if a.name == "value_ints":
        return np.array(list(a.ints), np.int64)
    return None


def constant(graph: onnx.GraphProto, name: str, inits=None, prods=None) -> np.ndarray | None:
    """The value of ``name`` when it is an initializer or a ``Constant`` node's output; else None."""
    inits = initializers(graph) if inits is None else inits
    if name in inits:
        if name in {i.name for i in graph.input}:
            return None  # an initializer that is also a graph input can be overridden: not a constant
        return numpy_helper.to_array(inits[name])
    node = (producers(graph) if prods is None else prods).get(name)
    return None if node is None else constant_node_value(node)


def all_names(graph: onnx.GraphProto) -> set[str]:
    names = {t.name for t in graph.initializer} | {i.name for i in graph.input} | {o.name for o in graph.output}
    names |= {n.name for n in graph.node} | {o for n in graph.node for o in n.output}
    return names


def fresh(taken: set[str], base: str) -> str:
    """``base`` or ``base_1``, ``base_2`` … whichever is not in ``taken``; the result is added to ``taken``."""
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}_{i}"
    taken.add(name)
    return name


def rename_value(graph: onnx.GraphProto, old: str, new: str) -> None:
    """Every reference to value ``old`` (node inputs/outputs, subgraphs' captured reads, graph outputs,
    value_info) now says ``new``."""
    for n in graph.node:
        _rename_in_node(n, old, new)
    for vi in list(graph.output) + list(graph.value_info):
        if vi.name == old:
            vi.name = new


def _rename_in_node(n: onnx.NodeProto, old: str, new: str) -> None:
    for i, name in enumerate(n.input):
        if name == old:
            n.input[i] = new
    for i, name in enumerate(n.output):
        if name == old:
            n.output[i] = new
    for sub in _subgraphs(n):
        _rename_in_subgraph(sub, old, new)


def _rename_in_subgraph(sub: onnx.GraphProto, old: str, new: str) -> None:
    """Outer-scope reads of ``old`` inside a subgraph, unless the subgraph defines a value of that name."""
    defined = {i.name for i in sub.input} | {t.name for t in sub.initializer} | {o for m in sub.node for o in m.output}
    if old in defined:
        return
    for m in sub.node:
        for i, name in enumerate(m.input):
            if name == old:
                m.input[i] = new
        for inner in _subgraphs(m):
            _rename_in_subgraph(inner, old, new)
    for o in sub.output:
        if o.name == old:
            o.name = new


def drop_value_info(graph: onnx.GraphProto, names: set[str]) -> None:
    for i in reversed([i for i, vi in enumerate(graph.value_info) if vi.name in names]):
        del graph.value_info[i]


def remove_nodes(graph: onnx.GraphProto, doomed: list[onnx.NodeProto]) -> None:
    keys = {_key(n) for n in doomed}
    for i in reversed([i for i, n in enumerate(graph.node) if _key(n) in keys]):
        del graph.node[i]


def _key(n: onnx.NodeProto) -> tuple:
    return (n.name, n.op_type, tuple(n.output), tuple(n.input))


def drop_unused_constants(graph: onnx.GraphProto, candidates: set[str]) -> None:
    """Remove those of ``candidates`` (initializers or Constant-node outputs) that nothing reads any more."""
    used = set(consumers(graph)) | {o.name for o in graph.output}
    doomed = {c for c in candidates if c not in used}
    if not doomed:
        return
    for i in reversed([i for i, t in enumerate(graph.initializer) if t.name in doomed]):
        del graph.initializer[i]
    for i in reversed([i for i, v in enumerate(graph.input) if v.name in doomed]):
        del graph.input[i]
    for i in reversed([i for i, n in enumerate(graph.node)
                       if n.op_type == "Constant" and len(n.output) == 1 and n.output[0] in doomed]):
        del graph.node[i]
