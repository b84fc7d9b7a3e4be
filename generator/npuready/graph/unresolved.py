"""Refuse to plan or cost a graph whose input shapes are not pinned.

A graph input with a symbolic or unknown dim (``dynamic_axes={"image": {0: "batch"}}``) leaves every
size downstream unknown: a placement would put the whole network on the CPU ("nothing on the NPU") and
the cost model would add up 0 cycles. Instead, ``require_pinned`` raises ``InputError`` (exit 2) with one
line naming the first node that reads such an input, the dim, and the option that pins it
(``--batch`` for dim 0, ``--input-shape`` for any). Lint does not call this: R001a reports those dims.

Dims that stay unknown for other reasons (a custom-domain op, a data-dependent size) are not refused
here: the planner places those nodes on the CPU and says why.
"""
from __future__ import annotations

from npuready.errors import InputError
from npuready.graph import Graph, TensorInfo


def require_pinned(graph: Graph, verb: str) -> None:
    """Raise ``InputError`` when a graph input that some node reads has a non-static dim."""
    label = str(graph.path) if graph.path else graph.name
    for info in graph.inputs:
        if info.is_static or info.shape is None:
            continue  # static, or not a tensor (the checker refuses tensor inputs without a shape)
        readers = graph.consumers.get(info.name, ())
        if not readers:
            continue  # an unused input changes nothing
        node = readers[0]
        where = f"{label}: node '{node.name}' ({node.op_type}) input '{info.name}'"
        axis = next(i for i, d in enumerate(info.shape) if not (isinstance(d, int) and d >= 0))
        dim = info.shape[axis]
        name = f" ('{dim}')" if isinstance(dim, str) else ""
        raise InputError(f"{where} dim {axis}{name} is unresolved, so {verb} cannot size anything; pin it with "
                         f"{suggestion(info, axis)}")


def suggestion(info: TensorInfo, axis: int) -> str:
    """The pin options that would fix ``info``'s dim ``axis`` (placeholders for sizes only the user knows)."""
    dims = []
    for i, d in enumerate(info.shape or ()):
        if isinstance(d, int) and d >= 0:
            dims.append(str(d))
        else:
            dims.append("1" if i == 0 else f"<{d if isinstance(d, str) else f'dim{i}'}>")
    shape = f"--input-shape {info.name}={','.join(dims)}"
    others_static = all(isinstance(d, int) and d >= 0 for d in (info.shape or ())[1:])
    return f"--batch 1 or {shape}" if axis == 0 and others_static else shape
