"""torch's exact GELU as exported below opset 20: ``x / c → Erf → + 1 → x · (…) → · 0.5``.

A converter turns the five nodes into one GELU op (npuready.tflite does; so does LiteRT), so a target
that runs GELU runs the whole pattern. ``npuready.targets.support`` reads it for placement and lint;
``npuready.intake.whatif`` for activation swaps.
"""
from __future__ import annotations

import weakref
from typing import Mapping

_MEMBERS: "weakref.WeakKeyDictionary[object, dict[str, str]]" = weakref.WeakKeyDictionary()


def gelu_span(graph, erf_name: str) -> tuple[str, str, tuple[str, ...]] | None:
    """The exported erf-GELU around Erf ``erf_name`` (the last two multiplications in either order).
    Returns (x, output tensor, node names in pattern order) or None when it is not that pattern."""
    erf = graph.node(erf_name)
    div = graph.producers.get(erf.inputs[0]) if erf.inputs else None
    if div is None or div.op_type != "Div" or not graph.is_constant(div.inputs[1]):
        return None
    x = div.inputs[0]
    chain, out = [div.name, erf.name], erf.outputs[0]
    saw_x = saw_half = False
    for expect in ("Add", "Mul", "Mul"):
        users = graph.consumers.get(out, ())
        if len(users) != 1 or users[0].op_type != expect:
            return None
        node = users[0]
        other = [i for i in node.inputs if i != out]
        if expect == "Mul" and other == [x]:
            saw_x = True
        elif not (len(other) == 1 and graph.is_constant(other[0])):
            return None
        elif expect == "Mul":
            saw_half = True
        chain.append(node.name)
        out = node.outputs[0]
    return (x, out, tuple(chain)) if saw_x and saw_half else None


def gelu_members(graph) -> Mapping[str, str]:
    """Node name → name of the Erf at the core of its exact-GELU pattern, for every node of every pattern
    in ``graph`` (computed once per graph view)."""
    found = _MEMBERS.get(graph)
    if found is None:
        found = {}
        for node in graph.nodes:
            if node.op_type == "Erf" and (span := gelu_span(graph, node.name)):
                found.update({member: node.name for member in span[2]})
        _MEMBERS[graph] = found
    return found
