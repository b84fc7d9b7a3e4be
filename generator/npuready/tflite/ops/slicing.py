"""Gather (constant indices) → GATHER; Slice (constant starts/ends/axes/steps > 0) → STRIDED_SLICE;
Split → one STRIDED_SLICE per output (part sizes as the integer engine reads them, ``engine.ops.split``).

Both work on the stored axis order (the ONNX axis is remapped through ``perm``); int8 outputs keep the
input's scale (a differing QDQ output scale gets a requantize).
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.engine.ops.slice import ranges as slice_ranges
from npuready.engine.ops.split import sizes as split_sizes
from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import Context, identity
from npuready.tflite.ops.common import perm_without, tfl_shape


def lower_gather(ctx: Context, node: Node) -> None:
    data, idx_name, out = node.inputs[0], node.inputs[1], node.outputs[0]
    idx = ctx.const(idx_name)
    if idx is None:
        raise InputError(f"node {node.name!r} (Gather): indices must be constant for the TFLite export")
    rank = len(ctx.shape(data))
    axis = int(node.attr("axis", 0)) % rank
    dim = ctx.shape(data)[axis]
    idx = np.where(np.asarray(idx) < 0, np.asarray(idx) + dim, np.asarray(idx)).astype(np.int32)
    x = ctx.value(data, identity(rank)) if idx.ndim != 0 else ctx.value(data)
    perm = perm_without(x.perm, (axis,)) if x.perm != identity(rank) else identity(len(ctx.shape(out)))
    indices = ctx.b.tensor(f"{out}#indices", idx.shape, "int32", data=idx)
    ctx.emit_same_scale("GATHER", [x.index, indices], fb.GatherOptionsT(axis=x.perm.index(axis), batchDims=0),
                        out, tfl_shape(ctx, out, perm), perm, x.index)


def lower_slice(ctx: Context, node: Node) -> None:
    data, out = node.inputs[0], node.outputs[0]
    shape = ctx.shape(data)
    rank = len(shape)
    starts, ends, axes, steps = (ctx.const(node.inputs[i]) if len(node.inputs) > i and node.inputs[i] else None
                                 for i in range(1, 5))
    if starts is None or ends is None:
        raise InputError(f"node {node.name!r} (Slice): starts/ends must be constants for the TFLite export")
    axes = list(range(len(starts))) if axes is None else [int(a) % rank for a in axes]
    steps = [1] * len(axes) if steps is None else [int(s) for s in steps]
    _strided_slice(ctx, data, out, slice_ranges(shape, starts, ends, axes, steps, node.name))


def _strided_slice(ctx: Context, data: str, out: str, ranges) -> None:
    x = ctx.value(data)
    order = list(x.perm)
    consts = [ctx.int_const(f"{out}#{k}", [ranges[a][j] for a in order]) for j, k in
              enumerate(("begin", "end", "strides"))]
    ctx.emit_same_scale("STRIDED_SLICE", [x.index, *consts], fb.StridedSliceOptionsT(), out,
                        tfl_shape(ctx, out, x.perm), x.perm, x.index)


def lower_split(ctx: Context, node: Node) -> None:
    data = node.inputs[0]
    shape = ctx.shape(data)
    axis = int(node.attr("axis", 0)) % len(shape)
    split = ctx.const(node.inputs[1]) if len(node.inputs) > 1 and node.inputs[1] else None
    start = 0
    for out, n in zip(node.outputs, split_sizes(node, shape[axis], split)):
        r = [[0, d, 1] for d in shape]
        r[axis] = [start, start + n, 1]
        start += n
        if out:
            _strided_slice(ctx, data, out, r)


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Gather": lower_gather,
    "Slice": lower_slice,
    "Split": lower_split,
}
