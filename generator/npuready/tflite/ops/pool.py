"""Pooling and reductions: MaxPool / AveragePool → MAX_POOL_2D / AVERAGE_POOL_2D (NHWC);
GlobalAveragePool / ReduceMean → MEAN; GlobalMaxPool / ReduceMax → REDUCE_MAX.

ceil_mode becomes explicit end padding (``engine.ops.window.explicit_pads``, the integer engine's own rule):
SAME when it equals TensorFlow SAME, else PADV2 with the lowest value before a VALID MaxPool.

AveragePool with padding: SAME padding excludes pads from the count (= ONNX count_include_pad=0);
other pads are exported only with count_include_pad=1 (explicit PAD with zeros, then VALID).
int8 pooling kernels keep the input's scale; a differing output scale gets a requantize.
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import NHWC, Context
from npuready.engine.ops.window import explicit_pads
from npuready.tflite.ops.common import pad_input, perm_without, same_pads, spatial_padding, tfl_shape


def lower_pool(ctx: Context, node: Node) -> None:
    x_name, out = node.inputs[0], node.outputs[0]
    xs = ctx.shape(x_name)
    if len(xs) != 4:
        raise InputError(f"node {node.name!r} ({node.op_type}): input rank {len(xs)}; only 2-D pooling is exported")
    k = [int(v) for v in node.attr("kernel_shape")]
    s = [int(v) for v in node.attr("strides", [1, 1])]
    d = [int(v) for v in node.attr("dilations", [1, 1])]
    if d != [1, 1]:
        raise InputError(f"node {node.name!r} ({node.op_type}): dilations {d}; TFLite pooling has none")
    if len(node.outputs) > 1 and node.outputs[1]:
        raise InputError(f"node {node.name!r} (MaxPool): the Indices output is not exported")
    x = ctx.value(x_name, NHWC)
    padding, explicit = spatial_padding(ctx, node, xs[2:], k, s, d)
    if int(node.attr("ceil_mode", 0)):  # the last window's extra rows/columns become explicit end padding
        explicit = explicit_pads(node, xs[2:])
        same = [same_pads(n, kk, ss, 1) for n, kk, ss in zip(xs[2:], k, s)]
        if explicit == [same[0][0], same[1][0], same[0][1], same[1][1]]:
            padding, explicit = fb.Padding.SAME, None
        elif not any(explicit):
            padding, explicit = fb.Padding.VALID, None
        else:
            padding = fb.Padding.VALID
    x_idx = x.index
    if explicit:
        if node.op_type == "AveragePool" and not int(node.attr("count_include_pad", 0)):
            raise InputError(f"node {node.name!r} (AveragePool): pads {explicit} with count_include_pad=0 "
                             "are not TFLite SAME padding; use SAME-style pads or count_include_pad=1")
        x_idx = pad_input(ctx, x, x_name, explicit, "low" if node.op_type == "MaxPool" else "zero")
    elif padding == fb.Padding.SAME and node.op_type == "AveragePool" and int(node.attr("count_include_pad", 0)):
        if node.attr("pads") is None:
            raise InputError(f"node {node.name!r} (AveragePool): auto_pad SAME with count_include_pad=1 is not "
                             "exported; give explicit pads")
        p = [int(v) for v in node.attr("pads")]
        x_idx = pad_input(ctx, x, x_name, p, "zero")
        padding = fb.Padding.VALID
    opname = "MAX_POOL_2D" if node.op_type == "MaxPool" else "AVERAGE_POOL_2D"
    opts = fb.Pool2DOptionsT(padding=padding, strideW=s[1], strideH=s[0], filterWidth=k[1], filterHeight=k[0],
                             fusedActivationFunction=0)
    ctx.emit_same_scale(opname, [x_idx], opts, out, tfl_shape(ctx, out, NHWC), NHWC, x_idx)


def _reduce(ctx: Context, node: Node, axes: list[int], keepdims: bool, opname: str) -> None:
    x_name, out = node.inputs[0], node.outputs[0]
    x = ctx.value(x_name)
    rank = len(x.perm)
    axes = sorted(a % rank for a in axes)
    tfl_axes = sorted(x.perm.index(a) for a in axes)
    perm = x.perm if keepdims else perm_without(x.perm, axes)
    axes_t = ctx.int_const(f"{out}#axes", tfl_axes)
    opts = fb.ReducerOptionsT(keepDims=keepdims)
    shape = tfl_shape(ctx, out, perm)
    if opname == "MEAN":
        ctx.op(opname, [x.index, axes_t], [ctx.new_value(out, shape, perm)], opts)
    else:
        ctx.emit_same_scale(opname, [x.index, axes_t], opts, out, shape, perm, x.index)


def _axes(ctx: Context, node: Node) -> list[int]:
    if len(node.inputs) > 1 and node.inputs[1]:
        v = ctx.const(node.inputs[1])
        if v is None:
            raise InputError(f"node {node.name!r} ({node.op_type}): axes must be a constant")
        return [int(a) for a in np.asarray(v).reshape(-1)]
    axes = node.attr("axes")
    if axes is None:
        if int(node.attr("noop_with_empty_axes", 0)):
            raise InputError(f"node {node.name!r} ({node.op_type}): noop_with_empty_axes is not exported")
        return list(range(len(ctx.shape(node.inputs[0]))))
    return [int(a) for a in axes]


def lower_global_pool(ctx: Context, node: Node) -> None:
    rank = len(ctx.shape(node.inputs[0]))
    _reduce(ctx, node, list(range(2, rank)), True, "MEAN" if node.op_type == "GlobalAveragePool" else "REDUCE_MAX")


def lower_reduce(ctx: Context, node: Node) -> None:
    _reduce(ctx, node, _axes(ctx, node), bool(int(node.attr("keepdims", 1))),
            "MEAN" if node.op_type == "ReduceMean" else "REDUCE_MAX")


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "MaxPool": lower_pool,
    "AveragePool": lower_pool,
    "GlobalAveragePool": lower_global_pool,
    "GlobalMaxPool": lower_global_pool,
    "ReduceMean": lower_reduce,
    "ReduceMax": lower_reduce,
}
