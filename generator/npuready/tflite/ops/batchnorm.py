"""Standalone BatchNormalization (not folded into a preceding Conv): float → MUL + ADD with per-channel
constants; int8 → one DEPTHWISE_CONV_2D with a 1×1 kernel, the integer engine's per-channel multiply-add
(``engine.ops.batchnorm``: the same int8 weights, weight scales and int32 bias, computed by the same
function). The channel axis is moved last in the stored order (NHWC for rank 4, a TRANSPOSE only when the
stored order differs); ranks 2 and 3 are reshaped to 4-D around the convolution and back.
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.builder import QParams
from npuready.tflite.context import Const, Context
from npuready.tflite.ops.common import fuse_activation, tfl_shape


def _affine(ctx: Context, node: Node) -> tuple[np.ndarray, np.ndarray]:
    from npuready.engine.ops.batchnorm import affine

    vals = [ctx.const(n) for n in node.inputs[1:5]]
    if len(vals) != 4 or any(v is None for v in vals):
        raise InputError(f"node {node.name!r} (BatchNormalization): scale/bias/mean/var must be constants")
    channels = ctx.shape(node.inputs[0])[1]
    gamma, beta, mean, var = (np.broadcast_to(np.asarray(v, np.float64).reshape(-1), (channels,)) for v in vals)
    return affine(gamma, beta, mean, var, node.attr("epsilon", 1e-5))


def lower_batchnorm(ctx: Context, node: Node) -> None:
    if ctx.int8:
        _int8(ctx, node)
        return
    k, shift = _affine(ctx, node)
    x = ctx.values.get(node.inputs[0]) or ctx.value(node.inputs[0])
    rank = len(x.perm)
    shape = [1] * rank
    shape[1] = k.size
    mul_c = Const(k.astype(np.float32).reshape(shape)).transpose(x.perm)
    add_c = Const(shift.astype(np.float32).reshape(shape)).transpose(x.perm)
    out = node.outputs[0]
    tmp = ctx.tmp(f"{out}#scaled", ctx.b.shape_of(x.index), None)
    ctx.op("MUL", [x.index, ctx.add_const(f"{out}#k", mul_c)], [tmp], fb.MulOptionsT())
    act, out = fuse_activation(ctx, out)
    ctx.op("ADD", [tmp, ctx.add_const(f"{out}#shift", add_c)],
           [ctx.new_value(out, tfl_shape(ctx, out, x.perm), x.perm)], fb.AddOptionsT(fusedActivationFunction=act))


def _int8(ctx: Context, node: Node) -> None:
    from npuready.engine.ops.batchnorm import channel_weights

    rank = len(ctx.shape(node.inputs[0]))
    if not 2 <= rank <= 4:
        raise InputError(f"node {node.name!r} (BatchNormalization): input rank {rank}; ranks 2 to 4 are exported")
    perm = (0, *range(2, rank), 1)  # channels last
    x = ctx.value(node.inputs[0], perm)
    in_qp = ctx.tensor_qparams(x.index)
    a, b = _affine(ctx, node)
    w, w_scale, bias = channel_weights(a, b, in_qp.scale[0])
    c = w.size
    act, out = fuse_activation(ctx, node.outputs[0])
    stored = tfl_shape(ctx, out, perm)
    four = stored if rank == 4 else [stored[0], 1, int(np.prod(stored[1:-1], dtype=np.int64)), c]
    src = x.index
    if rank != 4:
        src = ctx.tmp(f"{out}#in4d", four, in_qp)
        ctx.op("RESHAPE", [x.index, ctx.int_const(f"{out}#in4d_shape", four)], [src], fb.ReshapeOptionsT(newShape=four))
    filt = ctx.b.tensor(f"{out}#channel_weight", [1, 1, 1, c], "int8", data=w.reshape(1, 1, 1, c),
                        qparams=QParams.of(w_scale.astype(np.float64), np.zeros(c, np.int64), 3))
    bias_scale = (np.float32(in_qp.scale[0]) * w_scale).astype(np.float64)
    bias_t = ctx.b.tensor(f"{out}#channel_bias", [c], "int32", data=bias,
                          qparams=QParams.of(bias_scale, np.zeros(c, np.int64), 0))
    opts = fb.DepthwiseConv2DOptionsT(padding=fb.Padding.VALID, strideW=1, strideH=1, depthMultiplier=1,
                                      fusedActivationFunction=act, dilationWFactor=1, dilationHFactor=1)
    if rank == 4:
        ctx.op("DEPTHWISE_CONV_2D", [src, filt, bias_t], [ctx.new_value(out, stored, perm)], opts)
        return
    tmp = ctx.tmp(f"{out}#out4d", four, ctx.qparams(out))
    ctx.op("DEPTHWISE_CONV_2D", [src, filt, bias_t], [tmp], opts)
    ctx.op("RESHAPE", [tmp, ctx.int_const(f"{out}#shape", stored)], [ctx.new_value(out, stored, perm)],
           fb.ReshapeOptionsT(newShape=stored))


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "BatchNormalization": lower_batchnorm,
}
