"""ONNX ConvTranspose (2-D, group 1, no dilation) → TRANSPOSE_CONV (VALID, the full output
(in − 1)·stride + k + output_padding), then a STRIDED_SLICE cropping ONNX's pads when any are set.

Weights: ONNX [C_in, C_out, kh, kw] → TFLite [C_out, kh, kw, C_in] (int8 per output channel: quantized
dimension 0); bias always present (zeros when ONNX has none; int8: int32 at input_scale · weight_scale[o]).
A following Relu/Clip(0,6) is fused when allowed (``common.fuse_activation``). Checks are the integer
engine's (``engine.ops.convtranspose.check``), so both refuse the same nodes with the same message.
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import NHWC, Context
from npuready.tflite.ops.common import fuse_activation, tfl_shape
from npuready.tflite.ops.conv import bias_tensor, qbias


def lower_convtranspose(ctx: Context, node: Node) -> None:
    from npuready.engine.ops.convtranspose import check, geometry

    x_name, w_name = node.inputs[0], node.inputs[1]
    b_name = node.inputs[2] if len(node.inputs) > 2 and node.inputs[2] else None
    w = ctx.const_tensor(w_name)
    xs = ctx.shape(x_name)
    check(node, xs, w.f.shape)
    if ctx.int8 and w.q is None:
        raise InputError(f"node {node.name!r} (ConvTranspose): weight {w_name!r} is not quantized in the QDQ model")
    if ctx.int8 and any(z != 0 for z in w.qp.zero_point):
        raise InputError(f"node {node.name!r} (ConvTranspose): weight zero point must be 0 (symmetric int8)")
    _, o, kh, kw = w.f.shape
    geo = geometry(node, xs[2:], (kh, kw))
    bias = np.asarray(ctx.const(b_name), np.float32).reshape(o) if b_name else np.zeros(o, np.float32)
    act, out = fuse_activation(ctx, node.outputs[0])
    x = ctx.value(x_name, NHWC)
    out_shape = tfl_shape(ctx, out, NHWC)
    full = [out_shape[0], *geo["full"], o]
    cropped = geo["full"] != geo["out"]
    out_qp = ctx.qparams(out) if ctx.int8 else None
    dst = ctx.tmp(f"{out}#full", full, out_qp) if cropped else ctx.new_value(out, out_shape, NHWC)
    filt = ctx.add_const(w_name, w.transpose((1, 2, 3, 0)))
    ins = [ctx.int_const(f"{out}#output_shape", full), filt, x.index,
           bias_tensor(ctx, f"{out}#bias", qbias(ctx, b_name), o, x.index, w, bias)]
    sh, sw = geo["strides"]
    ctx.op("TRANSPOSE_CONV", ins, [dst], fb.TransposeConvOptionsT(padding=fb.Padding.VALID, strideW=sw, strideH=sh,
                                                                   fusedActivationFunction=act))
    if cropped:
        t, l, _, _ = geo["pads"]
        begin = [0, t, l, 0]
        ctx.op("STRIDED_SLICE", [dst, ctx.int_const(f"{out}#begin", begin),
                                 ctx.int_const(f"{out}#end", [b + s for b, s in zip(begin, out_shape)]),
                                 ctx.int_const(f"{out}#strides", [1, 1, 1, 1])],
               [ctx.new_value(out, out_shape, NHWC)], fb.StridedSliceOptionsT())


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "ConvTranspose": lower_convtranspose,
}
