"""Which non-static dims follow from the graph inputs, and which no inference resolves.

Shapes are resolved before any stage looks at them (``npuready.graph.resolve``). A dim that still carries
a graph input's dim name (``batch``, ``2*batch``) depends on that input: pinning the input fixes it. A dim
left unknown (or named by the inference tool, ``unk__3``) can only depend on the inputs when some input dim
is itself unknown; otherwise the size is set by tensor values (NonZero, a sequence element) or by an op no
inference covers — not by the input shapes.
"""
from __future__ import annotations

import re
from typing import Callable

from npuready.graph.view import Dim, Graph
from npuready.importer.dims import dim_name

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def unnamed_input(graph: Graph) -> bool:
    """True when some graph input dim was written without a name (unknown, or named by the importer:
    ``x_dim2`` for a ``-1``/``?`` the exporter wrote; ``npuready.importer.dims``), or is a dynamic dim past
    dim 0, which the symbolic pass does not follow (``npuready.graph.resolve.spatially_dynamic``)."""
    for t in graph.inputs:
        if t.shape is None:
            return True
        for axis, d in enumerate(t.shape):
            if d is None or (isinstance(d, str) and d.startswith(dim_name(t.name, axis))):
                return True
            if axis > 0 and not isinstance(d, int):
                # a spatial dim: shapes are resolved without the symbolic pass (graph.resolve.spatially_dynamic)
                return True
    return False


def input_dependent(graph: Graph) -> Callable[[Dim], bool]:
    """A predicate on non-static dims: does this dim follow from a graph input's symbolic or unknown dim?
    (A dim the exporter left unnamed may explain any unknown dim: inference cannot always follow it.)"""
    symbols = {d for t in graph.inputs for d in (t.shape or ()) if isinstance(d, str)}
    unknown_input = unnamed_input(graph)

    def depends(d: Dim) -> bool:
        if isinstance(d, str) and symbols.intersection(_NAME.findall(d)):
            return True
        return unknown_input

    return depends


def unresolved_values(graph: Graph) -> tuple[str, ...]:
    """Main-graph node outputs with a non-static dim that no graph-input dim explains (known rank only)."""
    depends = input_dependent(graph)
    out = []
    for node in graph.nodes:
        for name in node.outputs:
            shape = graph.info(name).shape if name else None
            if shape and any(not (isinstance(d, int) and d >= 0) and not depends(d) for d in shape):
                out.append(name)
    return tuple(out)
