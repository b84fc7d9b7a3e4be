"""Broadcasting binary ops: Add, Sub, Mul, Div (float only), Max, Min; standalone BatchNormalization
(float only) as MUL + ADD with per-channel constants.

The output keeps the axis order of the highest-rank run-time operand; constants are rank-extended
(NumPy broadcasting) and permuted to match. Add/Sub/Mul fold a following Relu/Clip(0,6).
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import Const, Context, identity
from npuready.tflite.ops.common import fuse_activation, tfl_shape

BINARY = {
    "Add": ("ADD", fb.AddOptionsT),
    "Sub": ("SUB", fb.SubOptionsT),
    "Mul": ("MUL", fb.MulOptionsT),
    "Div": ("DIV", fb.DivOptionsT),
    "Max": ("MAXIMUM", fb.MaximumMinimumOptionsT),
    "Min": ("MINIMUM", fb.MaximumMinimumOptionsT),
}


def out_perm(ctx: Context, node: Node) -> tuple[int, ...]:
    rank = len(ctx.shape(node.outputs[0]))
    for name in node.inputs:
        v = ctx.values.get(name)
        if v is not None and len(v.perm) == rank:
            return v.perm
    return identity(rank)


def lower_binary(ctx: Context, node: Node) -> None:
    opname, options = BINARY[node.op_type]
    if ctx.int8 and node.op_type == "Div":
        raise InputError(f"node {node.name!r} (Div): int8 DIV is not exported; multiply by the reciprocal")
    if len(node.inputs) != 2:
        raise InputError(f"node {node.name!r} ({node.op_type}): {len(node.inputs)} inputs; only 2 are exported")
    perm = out_perm(ctx, node)
    ins = [ctx.value_for_broadcast(n, perm).index for n in node.inputs]
    if node.op_type in ("Add", "Sub", "Mul", "Div"):
        act, out = fuse_activation(ctx, node.outputs[0])
        opts = options(fusedActivationFunction=act)
    else:
        out, opts = node.outputs[0], options()
    ctx.op(opname, ins, [ctx.new_value(out, tfl_shape(ctx, out, perm), perm)], opts)


def lower_batchnorm(ctx: Context, node: Node) -> None:
    if ctx.int8:
        raise InputError(f"node {node.name!r} (BatchNormalization): not foldable in a QDQ model; fold BN "
                         "into the preceding Conv before quantizing")
    vals = [ctx.const(n) for n in node.inputs[1:5]]
    if any(v is None for v in vals):
        raise InputError(f"node {node.name!r} (BatchNormalization): scale/bias/mean/var must be constants")
    gamma, beta, mean, var = (np.asarray(v, np.float64) for v in vals)
    k = gamma / np.sqrt(var + float(node.attr("epsilon", 1e-5)))
    x = ctx.values.get(node.inputs[0]) or ctx.value(node.inputs[0])
    rank = len(x.perm)
    shape = [1] * rank
    shape[1] = k.size
    mul_c = Const(k.astype(np.float32).reshape(shape)).transpose(x.perm)
    add_c = Const((beta - mean * k).astype(np.float32).reshape(shape)).transpose(x.perm)
    out = node.outputs[0]
    tmp = ctx.tmp(f"{out}#scaled", ctx.b.shape_of(x.index), None)
    ctx.op("MUL", [x.index, ctx.add_const(f"{out}#k", mul_c)], [tmp], fb.MulOptionsT())
    act, out = fuse_activation(ctx, out)
    ctx.op("ADD", [tmp, ctx.add_const(f"{out}#shift", add_c)],
           [ctx.new_value(out, tfl_shape(ctx, out, x.perm), x.perm)], fb.AddOptionsT(fusedActivationFunction=act))
