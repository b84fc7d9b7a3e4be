"""Dims as exporters write them → dims every stage reads the same way.

Paddle2ONNX writes a dynamic dim as ``-1`` (``[-1, 3, 48, 192]``), other exporters as ``0`` or as an unnamed ``?``
(neither value nor name set, or the name ``?`` itself). On a graph input each such dim becomes a dynamic dim of its own,
named after the input and its position (``x_dim0``, ``x_dim2``, ``x_dim3``): two unnamed dims of one input are two dims,
each pinnable (``--batch``, ``--input-shape``). Named dims (``batch``) are kept. On graph outputs a ``-1`` dim is
cleared (shape inference fills it); ``value_info`` entries with a ``-1`` dim are dropped (inference recomputes them).
"""
from __future__ import annotations

import re

import onnx

from npuready.importer.edit import drop_value_info
from npuready.importer.record import Rewrite

UNNAMED = ("?",)  # what Paddle2ONNX writes as a dim's name when it has none
_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


def dim_name(input_name: str, axis: int) -> str:
    """``x`` dim 2 → ``x_dim2``; characters a dim expression cannot hold become ``_``
    (``input.1`` → ``input_1_dim0``)."""
    base = _UNSAFE.sub("_", input_name) or "input"
    if base[0].isdigit():
        base = "_" + base
    return f"{base}_dim{axis}"


def _written(d: onnx.TensorShapeProto.Dimension) -> str:
    if d.HasField("dim_value"):
        return str(d.dim_value)
    return d.dim_param or "?"


def rewrite(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[Rewrite]]:
    g = model.graph
    inits = {t.name for t in g.initializer}
    taken = {d.dim_param for vi in list(g.input) + list(g.output) + list(g.value_info)
             if vi.type.HasField("tensor_type") for d in vi.type.tensor_type.shape.dim if d.dim_param}
    out: list[Rewrite] = []
    for vi in g.input:
        if vi.name in inits or not vi.type.HasField("tensor_type") or not vi.type.tensor_type.HasField("shape"):
            continue
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.HasField("dim_value") and d.dim_value > 0:
                continue
            if not d.HasField("dim_value") and d.dim_param and d.dim_param not in UNNAMED:
                continue
            was = _written(d)
            name = dim_name(vi.name, axis)
            while name in taken:
                name += "_"
            taken.add(name)
            d.Clear()
            d.dim_param = name
            out.append(Rewrite("dynamic-dim", (vi.name,), f"input '{vi.name}' dim {axis}: {was} → dynamic '{name}'"))
    for vi in g.output:
        if not vi.type.HasField("tensor_type"):
            continue
        for axis, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.HasField("dim_value") and d.dim_value < 0:
                was = d.dim_value
                d.Clear()
                out.append(Rewrite("dynamic-dim", (vi.name,),
                                   f"output '{vi.name}' dim {axis}: {was} → unknown (inferred)"))
    stale = {vi.name for vi in g.value_info if vi.type.HasField("tensor_type")
             and any(d.HasField("dim_value") and d.dim_value < 0 for d in vi.type.tensor_type.shape.dim)}
    if stale:
        drop_value_info(g, stale)
        out.append(Rewrite("value-info-dropped", tuple(sorted(stale)),
                           f"{len(stale)} declared value shapes with a -1 dim dropped "
                           "(shape inference recomputes them)"))
    return model, out
