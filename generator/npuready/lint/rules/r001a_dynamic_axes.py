"""R001a — no dynamic axes, anywhere, no exemption."""
from __future__ import annotations

import re
from collections import Counter

from npuready.graph import Graph
from npuready.lint import examples as ex
from npuready.lint.data_dependent import tainted_values
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target


def _dynamic_dims(shape) -> list[int]:
    return [i for i, d in enumerate(shape) if not (isinstance(d, int) and d >= 0)]


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def _dim_names(info) -> set[str]:
    return {n for d in (info.shape or ()) if isinstance(d, str) for n in _NAME.findall(d)}


def _reach(graph: Graph) -> Counter:
    """Dim name → how many values other than the graph inputs have shapes that mention it, summed over every
    graph's visible table (a subgraph sees its own values and its parents'; this count has always included
    them). Each graph's count is its own values' plus its parent's visible count, less the parent entries its
    own values shadow — so each table is read once: linear in the values, not quadratic in the subgraphs
    (20,000 If nodes iterated their parents' tables 20,000 times)."""
    inputs = {t.name for t in graph.inputs}
    total: Counter = Counter()
    stack: list[tuple[Graph, Counter]] = [(graph, Counter())]
    while stack:
        g, parent_visible = stack.pop()
        visible = Counter(parent_visible)
        for name, info in g.own_tensors.items():
            if name in inputs:
                continue
            visible.update(_dim_names(info))
            if g.parent is not None and name in g.parent.tensors:  # shadows the parent's entry of that name
                visible.subtract(_dim_names(g.parent.tensors[name]))
        total.update(visible)
        stack.extend((sub, visible) for node in reversed(g.nodes) for sub in reversed(node.subgraphs))
    return total


def pin_hint(name: str, shape, axis: int) -> str:
    """The flag that fixes dim ``axis`` of input ``name``: ``--batch 1`` for dim 0, and ``--input-shape``
    with the static sizes filled in and each dynamic one to choose (``x=1,3,<x_dim2>,<x_dim3>``)."""
    sizes = ",".join(str(d) if isinstance(d, int) and d >= 0 else ("1" if i == 0 else f"<{d or f'dim{i}'}>")
                     for i, d in enumerate(shape))
    full = f"--input-shape {name}={sizes}"
    return f"--batch 1 (or {full})" if axis == 0 else full


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    """One finding per dynamic dimension of the graph inputs (a dim name shared by several inputs is one
    dimension); the values whose shapes follow from it are counted, not reported one by one."""
    findings: list[Finding] = []
    tainted = tainted_values(graph)  # sizes set by a data-dependent op: reported once, by R002
    reach = _reach(graph)
    seen: set[str] = set()
    for io in graph.inputs:
        if io.name in tainted:
            continue
        if io.shape is None:
            findings.append(RULE.finding(None, f"graph input '{io.name}' has unknown rank; give its shape with "
                                         f"--input-shape {io.name}=D0,D1,...", value="unknown rank",
                                         limit="all dimensions static", tensor=io.name))
            continue
        for axis in _dynamic_dims(io.shape):
            dim = io.shape[axis]
            if isinstance(dim, str):
                if dim in seen:
                    continue
                seen.add(dim)
            hint = pin_hint(io.name, io.shape, axis)
            label = f"'{dim}'" if isinstance(dim, str) else "unknown"
            reached = reach.get(dim, 0) if isinstance(dim, str) else 0
            spread = f", {reached} value(s) carry it" if reached else ""
            findings.append(RULE.finding(None, f"graph input '{io.name}' dim {axis} is dynamic ({label}) in shape "
                                         f"{io.shape_text()}{spread}; pin it with {hint}",
                                         value=io.shape_text(), limit="all dimensions static", tensor=io.name,
                                         axes=[axis], dim=dim, values=reached, pin=hint))
    for io in graph.outputs:
        if io.name not in tainted and io.shape is None:
            findings.append(RULE.finding(None, f"graph output '{io.name}' has unknown rank", value="unknown rank",
                                         limit="all dimensions static", tensor=io.name))
    return findings


def _bad():
    return ex.conv_relu(shape=("N", 3, 16, 16), name="r001a_bad")


def _good():
    return ex.conv_relu(shape=(1, 3, 16, 16), name="r001a_good")


RULE = Rule(
    id="R001a",
    severity=Severity.ERROR,
    title="No dynamic axes",
    why="NPU compilers plan memory and tiling statically; a symbolic or unknown dimension on a graph input, output "
        "or intermediate value makes the compiled buffer sizes undefined.",
    fix="Pin each dynamic dim when you run npuready: --batch N fixes dim 0 of every input, --input-shape "
        "NAME=D0,D1,... fixes all dims of input NAME (the finding names the flag for its dim); or export with "
        "static shapes (torch.onnx.export without dynamic_axes).",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="No exemption, ever: a fixed batch of T frames is still static and is R001b's business, not R001a's. "
          "Dims that are dynamic only because a data-dependent op (NonZero, NonMaxSuppression, ...) produced them "
          "are reported once, at their origin, by R002. One finding per dynamic dimension of the graph inputs (a "
          "dim name several inputs share is one dimension), with the count of values whose shapes carry it; the "
          "values that follow from it are not reported one by one. A graph-input dim written as -1, 0 or an "
          "unnamed '?' is a dynamic dim of its own (the importer names it, e.g. x_dim2); a dimension of 0 "
          "elsewhere is static. Shapes are resolved before the rule runs (onnx shape inference, then "
          "onnxruntime's symbolic shape inference, which evaluates shape computations such as "
          "Shape→Gather→Concat→Reshape): pin the input dims with --batch / --input-shape to see the static "
          "result.",
)
