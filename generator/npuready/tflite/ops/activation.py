"""Unary activations: Relu, Clip, Sigmoid, Tanh, HardSwish, LeakyRelu, Gelu, Softmax.

The output keeps the input's axis order. int8 LOGISTIC and SOFTMAX need output scale 1/256 and
zero point -128, TANH 1/128 and 0 (TFLite kernel requirements); a QDQ model with other output
parameters gets a requantize recorded in ``adjustments``. Clip other than (0,6)/(0,inf)/(-1,1) is
MAXIMUM + MINIMUM (int8: with the bounds as output codes, after a requantize when the scales differ).
"""
from __future__ import annotations

import math

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.builder import QParams
from npuready.tflite.context import Const, Context
from npuready.tflite.ops.common import ACT, activation_code, clip_bounds, tfl_shape

SIGMOID_Q = QParams.of(1.0 / 256.0, -128)
TANH_Q = QParams.of(1.0 / 128.0, 0)
ACT_OP = {ACT.RELU: "RELU", ACT.RELU6: "RELU6", ACT.RELU_N1_TO_1: "RELU_N1_TO_1"}


def lower_activation(ctx: Context, node: Node) -> None:
    x = ctx.value(node.inputs[0])
    out = node.outputs[0]
    shape = tfl_shape(ctx, out, x.perm)
    op = node.op_type
    if op in ("Relu", "Clip"):
        code = activation_code(ctx, node)
        if code is not None:
            ctx.op(ACT_OP[code], [x.index], [ctx.new_value(out, shape, x.perm)])
            return
        if ctx.int8:
            _clip_int8(ctx, node, x, out, shape)
            return
        lo, hi = clip_bounds(ctx, node)
        cur = x.index
        if lo > -math.inf:
            nxt = ctx.tmp(f"{out}#lo", shape, None) if hi < math.inf else ctx.new_value(out, shape, x.perm)
            ctx.op("MAXIMUM", [cur, ctx.add_const(f"{out}#min", Const(np.array(lo, np.float32)))], [nxt])
            cur = nxt
        if hi < math.inf:
            ctx.op("MINIMUM", [cur, ctx.add_const(f"{out}#max", Const(np.array(hi, np.float32)))],
                   [ctx.new_value(out, shape, x.perm)])
        return
    if op == "Sigmoid":
        ctx.emit_fixed_out("LOGISTIC", [x.index], None, out, shape, x.perm, SIGMOID_Q)
    elif op == "Tanh":
        ctx.emit_fixed_out("TANH", [x.index], None, out, shape, x.perm, TANH_Q)
    elif op == "HardSwish":
        ctx.op("HARD_SWISH", [x.index], [ctx.new_value(out, shape, x.perm)])
    elif op == "LeakyRelu":
        ctx.op("LEAKY_RELU", [x.index], [ctx.new_value(out, shape, x.perm)],
               fb.LeakyReluOptionsT(alpha=float(node.attr("alpha", 0.01))))
    elif op == "Gelu":
        approx = node.attr("approximate", "none") == "tanh"
        ctx.op("GELU", [x.index], [ctx.new_value(out, shape, x.perm)], fb.GeluOptionsT(approximate=approx))
    else:
        raise InputError(f"node {node.name!r}: activation {op} is not exported")


def _clip_int8(ctx: Context, node: Node, x, out: str, shape) -> None:
    """Clip with other bounds, int8: requantize to the output (when it differs), then MAXIMUM/MINIMUM with the
    bounds as output codes (``engine.export.clamp_codes``: the integer engine's Rescale clamp)."""
    from npuready.engine.export import clamp_codes
    from npuready.engine.intgraph import QTensor

    out_qp = ctx.qparams(out)
    src = x.index
    if not ctx.tensor_qparams(src).same_as(out_qp):
        src = ctx.requantize(src, out_qp, f"{out}#requantized", "Clip output quantisation differs from its input")
    lo, hi = clamp_codes(QTensor(out, out, (), out_qp.scale[0], out_qp.zero_point[0]), *clip_bounds(ctx, node))
    steps = [("MAXIMUM", lo)] + ([("MINIMUM", hi)] if hi < 127 else [])
    for i, (opname, code) in enumerate(steps):
        bound = ctx.b.tensor(f"{out}#{opname.lower()}", [], "int8", data=np.array(code, np.int8), qparams=out_qp)
        dst = ctx.new_value(out, shape, x.perm) if i == len(steps) - 1 else ctx.tmp(f"{out}#clamped", shape, out_qp)
        ctx.op(opname, [src, bound], [dst], fb.MaximumMinimumOptionsT())
        src = dst


def lower_prelu(ctx: Context, node: Node) -> None:
    """PRelu → PRELU with the slope rank-extended and permuted to the input's stored order (int8: the QDQ
    model's int8 slope and its scale, as the integer engine reads them)."""
    x = ctx.value(node.inputs[0])
    alpha = ctx.value_for_broadcast(node.inputs[1], x.perm)
    out = node.outputs[0]
    ctx.op("PRELU", [x.index, alpha.index], [ctx.new_value(out, tfl_shape(ctx, out, x.perm), x.perm)])


def lower_softmax(ctx: Context, node: Node) -> None:
    """SOFTMAX normalises the last stored axis: the ONNX axis is moved there (a TRANSPOSE only when the
    stored order differs) and the output keeps that order."""
    rank = len(ctx.shape(node.inputs[0]))
    axis = int(node.attr("axis", -1 if ctx.graph.opsets.get("", 13) >= 13 else 1)) % rank
    if ctx.graph.opsets.get("", 13) < 13 and axis != rank - 1:
        raise InputError(f"node {node.name!r} (Softmax): opset < 13 flattens from axis {axis}; only the last "
                         "axis is exported")
    x = ctx.value(node.inputs[0])
    if x.perm[-1] != axis:
        x = ctx.value(node.inputs[0], tuple(a for a in x.perm if a != axis) + (axis,))
    out = node.outputs[0]
    ctx.emit_fixed_out("SOFTMAX", [x.index], fb.SoftmaxOptionsT(beta=1.0), out,
                       tfl_shape(ctx, out, x.perm), x.perm, SIGMOID_Q)


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Relu": lower_activation,
    "Clip": lower_activation,
    "Sigmoid": lower_activation,
    "Tanh": lower_activation,
    "HardSwish": lower_activation,
    "LeakyRelu": lower_activation,
    "Gelu": lower_activation,
    "Softmax": lower_softmax,
    "PRelu": lower_prelu,
}
