"""PRelu slopes as initializers, whatever form the exporter wrote them in.

A slope computed from constants only (a ``Constant`` node, ``Unsqueeze``/``Reshape``/``Cast`` of an
initializer, …) is evaluated once with onnx's reference evaluator and stored as an initializer the PRelu
reads directly; the constant chain is removed when nothing else reads it. A slope that depends on a graph
input is left as it is. (LeakyRelu's slope is its ``alpha`` attribute: a constant already.)
"""
from __future__ import annotations

import onnx
from onnx import helper, numpy_helper

from npuready.importer.edit import all_names, consumers, fresh, initializers, producers, remove_nodes
from npuready.importer.record import Rewrite

MAX_CHAIN = 16  # nodes in a constant chain worth evaluating


def _chain(name: str, prods, inits, graph_inputs) -> list[onnx.NodeProto] | None:
    """The nodes computing ``name`` from initializers and Constant nodes only (topological), or None."""
    order: list[onnx.NodeProto] = []
    seen: set[str] = set()

    def visit(value: str) -> bool:
        if not value or value in seen:
            return True
        seen.add(value)
        if value in inits:
            return value not in graph_inputs
        node = prods.get(value)
        if node is None or node.domain not in ("", "ai.onnx") or len(order) >= MAX_CHAIN:
            return False
        if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in node.attribute):
            return False
        if not all(visit(v) for v in node.input):
            return False
        order.append(node)
        return True

    return order if visit(name) else None


def _evaluate(model: onnx.ModelProto, chain: list[onnx.NodeProto], name: str, inits) -> onnx.TensorProto:
    from onnx.reference import ReferenceEvaluator

    needed = {v for n in chain for v in n.input if v in inits}
    g = helper.make_graph(list(chain), "slope", [], [helper.make_value_info(name, onnx.TypeProto())],
                          [inits[v] for v in sorted(needed)])
    sub = helper.make_model(g, opset_imports=list(model.opset_import), ir_version=model.ir_version)
    (value,) = ReferenceEvaluator(sub).run(None, {})
    return numpy_helper.from_array(value)


def rewrite(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[Rewrite]]:
    g = model.graph
    out: list[Rewrite] = []
    prelus = [n for n in g.node if n.op_type == "PRelu" and n.domain in ("", "ai.onnx") and len(n.input) > 1]
    if not prelus:
        return model, out
    taken = all_names(g)
    graph_inputs = {i.name for i in g.input}
    for n in prelus:
        slope = n.input[1]
        inits, prods = initializers(g), producers(g)
        if slope in inits and slope not in graph_inputs:
            continue
        chain = _chain(slope, prods, inits, graph_inputs)
        if not chain:
            continue
        try:
            tensor = _evaluate(model, chain, slope, inits)
        except Exception:  # the reference evaluator cannot run it: leave the slope as it is
            continue
        tensor.name = fresh(taken, f"{slope}_slope")
        g.initializer.append(tensor)
        n.input[1] = tensor.name
        forms = "+".join(c.op_type for c in chain)
        out.append(Rewrite("slope-initializer", (n.name or "PRelu",),
                           f"slope '{slope}' ({forms}) → initializer '{tensor.name}' shape {list(tensor.dims)}"))
        _drop_dead(g, chain)
    return model, out


def _drop_dead(g: onnx.GraphProto, chain: list[onnx.NodeProto]) -> None:
    """Remove chain nodes no longer read (last first, so a node feeding only dead nodes goes too)."""
    outputs = {o.name for o in g.output}
    for node in reversed(chain):
        users = consumers(g)
        if not any(users.get(o) or o in outputs for o in node.output):
            remove_nodes(g, [node])
