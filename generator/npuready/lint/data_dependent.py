"""Which nodes produce outputs whose *size* depends on tensor values (R002's concept).

Shared by R002 (which reports the origin) and R001a (which does not report, a second time,
the dynamic dims that follow from such an origin: one root cause, one finding).
"""
from __future__ import annotations

import weakref

from npuready.graph import Graph, Node, families

_ORIGINS: "weakref.WeakKeyDictionary[Graph, list]" = weakref.WeakKeyDictionary()

# Ops whose output size depends on the data by definition (onnx operator semantics).
ALWAYS: dict[str, str] = {
    "NonZero": "the number of non-zero elements is known only at run time",
    "NonMaxSuppression": "the number of kept boxes depends on the scores and IoU values",
    "Unique": "the number of distinct values is known only at run time",
    "StringSplit": "the number of substrings depends on the string contents",
    "RegexFullMatch": "operates on strings, which have no fixed-size accelerator representation",
}

# op -> (input position that sets the output size, what it is). Flagged when that input is not a
# constant and shape inference (with data propagation) could not prove the output static.
VALUE_SIZED: dict[str, tuple[int, str]] = {
    "Compress": (1, "condition"),
    "TopK": (1, "K"),
    "Range": (-1, "start/limit/delta"),  # -1: any input
    "Reshape": (1, "shape"),
    "Expand": (1, "shape"),
    "ConstantOfShape": (0, "shape"),
    "Tile": (1, "repeats"),
    "Slice": (-2, "starts/ends/axes/steps"),  # -2: any input from position 1 on
    "Pad": (-2, "pads"),
    "Resize": (-2, "roi/scales/sizes"),
    "Upsample": (1, "scales"),
    "OneHot": (1, "depth"),
    "CenterCropPad": (1, "shape"),
}


# Ops whose output is not a function of their inputs: never folded at compile time.
NONDETERMINISTIC = families.RANDOM | families.TRAINING_RANDOM
_COMPUTABLE: "weakref.WeakKeyDictionary[Graph, dict[str, bool]]" = weakref.WeakKeyDictionary()


def compile_time_value(graph: Graph, name: str) -> bool:
    """True when ``name``'s value is known before run time: a constant, or computed only from constants and
    the shapes of statically shaped tensors (Shape/Size), through deterministic standard ops (constant folding)."""
    memo = _COMPUTABLE.setdefault(graph, {})
    stack = [name]
    while stack:
        current = stack[-1]
        if current in memo:
            stack.pop()
            continue
        if graph.is_constant(current):
            memo[current] = True
            stack.pop()
            continue
        node = graph.producers.get(current)
        if node is None or not node.is_standard or node.op_type in NONDETERMINISTIC or node.subgraphs:
            memo[current] = False  # graph input, outer-scope value, or not foldable
            stack.pop()
            continue
        if node.op_type in ("Shape", "Size"):
            memo[current] = bool(node.inputs) and graph.info(node.inputs[0]).is_static
            stack.pop()
            continue
        pending = [i for i in node.inputs if i and i not in memo]
        if pending:
            stack.extend(pending)
            continue
        memo[current] = all(memo[i] for i in node.inputs if i)
        stack.pop()
    return memo[name]


def _static(graph: Graph, name: str) -> bool:
    return graph.info(name).is_static


def _value_inputs(node: Node, pos: int) -> list[str]:
    if pos == -1:
        return [i for i in node.inputs if i]
    if pos == -2:
        return [i for i in node.inputs[1:] if i]
    return [node.inputs[pos]] if len(node.inputs) > pos and node.inputs[pos] else []


def reason(graph: Graph, node: Node) -> str | None:
    """Why ``node``'s output size depends on data, or None when it does not."""
    if not node.is_standard:
        return None
    if node.op_type in ALWAYS:
        return ALWAYS[node.op_type]
    if node.op_type == "Loop":
        return _loop_reason(graph, node)
    spec = VALUE_SIZED.get(node.op_type)
    if spec is None:
        return None
    pos, what = spec
    runtime = [i for i in _value_inputs(node, pos) if not compile_time_value(graph, i)]
    if not runtime:
        return None
    outs = [o for o in node.outputs if o]
    if outs and all(_static(graph, o) for o in outs):
        return None  # shape inference proved the size static (e.g. shape computed from static shapes)
    data_inputs = [i for i in node.inputs if i and i not in runtime]
    if (node.op_type not in ("Compress", "TopK", "Range", "ConstantOfShape")
            and not all(_static(graph, i) for i in data_inputs)):
        return None  # the input is already dynamic: the dynamism originates upstream (R001a)
    return f"its {what} input {runtime} is computed at run time, so the output size depends on tensor values"


def _loop_reason(graph: Graph, node: Node) -> str | None:
    body = node.subgraphs[0] if node.subgraphs else None
    if body is None:
        return None
    n_carried = max(len(node.inputs) - 2, 0)  # body outputs: cond, carried..., scan outputs...
    n_scan = len(body.outputs) - 1 - n_carried
    if n_scan <= 0:
        return None
    trip = node.inputs[0] if node.inputs else ""
    cond = node.inputs[1] if len(node.inputs) > 1 else ""
    if trip and graph.is_constant(trip) and (not cond or graph.is_constant(cond)) and _body_cond_passthrough(body):
        return None
    return "its scan outputs grow with the trip count / loop condition, which are known only at run time"


def _body_cond_passthrough(body: Graph) -> bool:
    """The body's condition output is its condition input (or a constant): the loop runs a fixed count."""
    cond_out = body.outputs[0].name if body.outputs else ""
    cond_in = body.proto.input[1].name if len(body.proto.input) > 1 else None
    if cond_out == cond_in or body.is_constant(cond_out):
        return True
    p = body.producers.get(cond_out)
    return p is not None and p.op_type == "Identity" and p.inputs and p.inputs[0] == cond_in


def origins(graph: Graph) -> list[tuple[Graph, Node, str]]:
    """Every data-dependent node in the graph and its subgraphs, with the reason (cached per graph)."""
    if graph in _ORIGINS:
        return _ORIGINS[graph]
    out = []
    for sub, node in graph.walk():
        why = reason(sub, node)
        if why is not None:
            out.append((sub, node, why))
    _ORIGINS[graph] = out
    return out


def tainted_values(graph: Graph) -> frozenset[str]:
    """Values whose size follows from a data-dependent origin (its outputs and everything downstream)."""
    origin_ids = {id(n) for _, n, _ in origins(graph)}
    tainted: set[str] = set()

    def contains_origin(node: Node) -> bool:
        return any(id(n) in origin_ids for sub in node.subgraphs for _, n in sub.walk())

    def visit(g: Graph) -> None:
        for node in g.nodes:
            if id(node) in origin_ids or contains_origin(node) or any(i in tainted for i in node.inputs if i):
                tainted.update(o for o in node.outputs if o)
            for sub in node.subgraphs:
                visit(sub)

    visit(graph)
    return frozenset(tainted)
