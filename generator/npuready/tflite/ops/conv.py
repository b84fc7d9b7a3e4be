"""ONNX Conv (2-D) → CONV_2D / DEPTHWISE_CONV_2D (grouped: SPLIT + CONV_2D per group + CONCATENATION).

Float mode folds a following BatchNormalization into weights and bias; a following Relu/Clip(0,6)
becomes the fused activation. Weights: CONV_2D ``[O, kh, kw, I]`` (per-channel axis 0),
DEPTHWISE ``[1, kh, kw, O]`` (per-channel axis 3). Bias is always present (zeros when ONNX has none);
int8 bias is int32 with scale ``input_scale * weight_scale[c]``.
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.builder import QParams
from npuready.tflite.context import NHWC, Const, Context
from npuready.tflite.quant_table import QConst
from npuready.tflite.ops.common import fuse_activation, pad_input, spatial_padding, tfl_shape


def _fold_bn(ctx: Context, out: str, w: Const, bias: np.ndarray) -> tuple[str, Const, np.ndarray]:
    bn = ctx.single_consumer(out)
    if ctx.int8 or bn is None or bn.op_type != "BatchNormalization" or bn.inputs[0] != out:
        return out, w, bias
    vals = [ctx.const(n) for n in bn.inputs[1:5]]
    if any(v is None for v in vals):
        return out, w, bias
    gamma, beta, mean, var = (np.asarray(v, np.float64) for v in vals)
    k = gamma / np.sqrt(var + float(bn.attr("epsilon", 1e-5)))
    w = Const((w.f.astype(np.float64) * k.reshape(-1, 1, 1, 1)).astype(np.float32))
    bias = ((bias - mean) * k + beta).astype(np.float32)
    ctx.consumed.add(bn.name)
    ctx.fused[out] = bn.outputs[0]
    return bn.outputs[0], w, bias


def qbias(ctx: Context, b_name: str | None, lo: int = 0, hi: int | None = None) -> QConst | None:
    """The QDQ int32 bias of ``b_name`` (channels lo:hi), or None (float mode, no bias, not quantized)."""
    qc = ctx.quant.const.get(b_name) if ctx.int8 and b_name else None
    if qc is None or (lo == 0 and hi is None):
        return qc
    scale = np.broadcast_to(np.asarray(qc.qp.scale), (qc.q.size,))[lo:hi]
    zp = np.broadcast_to(np.asarray(qc.qp.zero_point), (qc.q.size,))[lo:hi]
    return QConst(qc.q.reshape(-1)[lo:hi], QParams.of(scale, zp, 0))


def bias_tensor(ctx: Context, label: str, qc: QConst | None, n: int, in_index: int, w: Const,
                bias_f: np.ndarray) -> int:
    """Float bias, or int32 bias with scale in_scale * w_scale (the QDQ integers when they agree)."""
    if not ctx.int8:
        return ctx.add_const(label, Const(bias_f.astype(np.float32)), dtype="float32")
    in_qp = ctx.tensor_qparams(in_index)
    w_scale = np.asarray(w.qp.scale, np.float64)
    expected = np.float32(in_qp.scale[0]) * w_scale.astype(np.float32)
    expected = np.broadcast_to(expected, (n,)).astype(np.float64)
    if qc is not None and np.allclose(np.broadcast_to(qc.qp.scale, (n,)), expected, rtol=1e-6, atol=0):
        q = qc.q.astype(np.int32).reshape(n)
    else:
        q = np.clip(np.round(bias_f.astype(np.float64) / expected), -2**31, 2**31 - 1).astype(np.int32)
        if qc is not None:
            ctx.adjustments.append(f"{label}: bias scale in the QDQ model differs from input*weight scale; "
                                   "bias re-quantized to int32 at input*weight scale")
    axis = 0
    return ctx.b.tensor(label, [n], "int32", data=q, qparams=QParams.of(expected, np.zeros(n, np.int64), axis))


def lower_conv(ctx: Context, node: Node) -> None:
    x_name, w_name = node.inputs[0], node.inputs[1]
    b_name = node.inputs[2] if len(node.inputs) > 2 and node.inputs[2] else None
    xs = ctx.shape(x_name)
    if len(xs) != 4:
        raise InputError(f"node {node.name!r} (Conv): input rank {len(xs)}; only 2-D convolution (NCHW) is exported")
    w = ctx.const_tensor(w_name)
    if ctx.int8 and w.q is None:
        raise InputError(f"node {node.name!r} (Conv): weight {w_name!r} is not quantized in the QDQ model")
    if ctx.int8 and any(z != 0 for z in w.qp.zero_point):
        raise InputError(f"node {node.name!r} (Conv): weight zero point must be 0 (symmetric int8) for TFLite")
    o, ig, kh, kw = w.f.shape
    bias = np.asarray(ctx.const(b_name), np.float32).reshape(o) if b_name else np.zeros(o, np.float32)
    group = int(node.attr("group", 1))
    strides = [int(s) for s in node.attr("strides", [1, 1])]
    dil = [int(d) for d in node.attr("dilations", [1, 1])]
    out, w, bias = _fold_bn(ctx, node.outputs[0], w, bias)
    act, out = fuse_activation(ctx, out)
    x = ctx.value(x_name, NHWC)
    padding, explicit = spatial_padding(ctx, node, xs[2:], (kh, kw), strides, dil)
    x_idx = pad_input(ctx, x, x_name, explicit, "zero") if explicit else x.index
    out_shape = tfl_shape(ctx, out, NHWC)
    cin = xs[1]
    if group == 1:
        filt = w.transpose((0, 2, 3, 1))
        opts = fb.Conv2DOptionsT(padding=padding, strideW=strides[1], strideH=strides[0],
                                 fusedActivationFunction=act, dilationWFactor=dil[1], dilationHFactor=dil[0])
        ins = [x_idx, ctx.add_const(w_name, filt),
               bias_tensor(ctx, f"{out}#bias", qbias(ctx, b_name), o, x_idx, w, bias)]
        ctx.op("CONV_2D", ins, [ctx.new_value(out, out_shape, NHWC)], opts)
    elif group == cin and ig == 1:
        filt = w.transpose((1, 2, 3, 0))
        opts = fb.DepthwiseConv2DOptionsT(padding=padding, strideW=strides[1], strideH=strides[0],
                                          depthMultiplier=o // cin, fusedActivationFunction=act,
                                          dilationWFactor=dil[1], dilationHFactor=dil[0])
        ins = [x_idx, ctx.add_const(w_name, filt),
               bias_tensor(ctx, f"{out}#bias", qbias(ctx, b_name), o, x_idx, w, bias)]
        ctx.op("DEPTHWISE_CONV_2D", ins, [ctx.new_value(out, out_shape, NHWC)], opts)
    else:
        _grouped(ctx, node, x_idx, w, w_name, b_name, bias, group, padding, strides, dil, act, out, out_shape)


def _slice(w: Const, lo: int, hi: int) -> Const:
    qp = w.qp
    if qp is not None and qp.per_channel:
        qp = QParams(qp.scale[lo:hi], qp.zero_point[lo:hi], qp.axis)
    return Const(w.f[lo:hi], None if w.q is None else w.q[lo:hi], qp)


def _grouped(ctx, node, x_idx, w, w_name, b_name, bias, group, padding, strides, dil, act, out, out_shape):
    n, h, wd, c = ctx.b.shape_of(x_idx)
    if c % group or w.f.shape[0] % group:
        raise InputError(f"node {node.name!r} (Conv): group {group} does not divide channels {c}")
    qp = ctx.tensor_qparams(x_idx)
    parts = [ctx.tmp(f"{out}#split{g}", [n, h, wd, c // group], qp) for g in range(group)]
    axis = ctx.b.tensor(f"{out}#split_axis", [], "int32", data=np.array(3, np.int32))
    ctx.op("SPLIT", [axis, x_idx], parts, fb.SplitOptionsT(numSplits=group))
    og = w.f.shape[0] // group
    out_qp = ctx.qparams(out) if ctx.int8 else None
    pieces = []
    for g, part in enumerate(parts):
        wg = _slice(w, g * og, (g + 1) * og)
        opts = fb.Conv2DOptionsT(padding=padding, strideW=strides[1], strideH=strides[0],
                                 fusedActivationFunction=act, dilationWFactor=dil[1], dilationHFactor=dil[0])
        piece = ctx.tmp(f"{out}#group{g}", out_shape[:3] + [og], out_qp)
        bq = bias_tensor(ctx, f"{out}#bias{g}", qbias(ctx, b_name, g * og, (g + 1) * og), og, part, wg,
                         bias[g * og:(g + 1) * og])
        ctx.op("CONV_2D", [part, ctx.add_const(f"{w_name}#g{g}", wg.transpose((0, 2, 3, 1))), bq], [piece], opts)
        pieces.append(piece)
    ctx.op("CONCATENATION", pieces, [ctx.new_value(out, out_shape, NHWC)],
           fb.ConcatenationOptionsT(axis=3, fusedActivationFunction=0))


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Conv": lower_conv,
}
