"""Gather (constant indices) → GATHER and Slice (constant starts/ends/axes/steps > 0) → STRIDED_SLICE.

Both work on the stored axis order (the ONNX axis is remapped through ``perm``); int8 outputs keep the
input's scale (a differing QDQ output scale gets a requantize).
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

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
    if any(s <= 0 for s in steps):
        raise InputError(f"node {node.name!r} (Slice): steps {steps}; only positive steps are exported")
    x = ctx.value(data)
    begin, end, stride = [0] * rank, list(shape), [1] * rank
    for a, s, e, st in zip(axes, starts, ends, steps):
        d = shape[a]
        s, e = int(s), int(e)
        s = min(max(s + d if s < 0 else s, 0), d)
        e = min(max(e + d if e < 0 else e, 0), d)
        begin[a], end[a], stride[a] = s, e, st
    order = list(x.perm)
    consts = [ctx.int_const(f"{out}#{k}", [v[a] for a in order]) for k, v in
              (("begin", begin), ("end", end), ("strides", stride))]
    ctx.emit_same_scale("STRIDED_SLICE", [x.index, *consts], fb.StridedSliceOptionsT(), out,
                        tfl_shape(ctx, out, x.perm), x.perm, x.index)
