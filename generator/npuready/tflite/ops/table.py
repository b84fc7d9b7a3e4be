"""Unary int8 functions without a TFLite int8 kernel (HardSigmoid, Erf, Elu, a Div → Erf chain) as the integer
engine's own 256-entry table: CAST int8→int32, ADD 128, GATHER from the table.

The table is ``engine.ops.lut.table`` for the same chain of nodes and quantisations, so LiteRT agrees with
the integer engine on these ops by construction (declared: this checks the export, not TFLite arithmetic).
Float exports lower HardSigmoid as a TFLite converter lowers Keras' ``hard_sigmoid`` (relu6(6αx + 6β) / 6:
[MUL] + ADD with a fused RELU6 + MUL, so TFLite's calibrator quantises it into int8 builtins) and Elu (α = 1)
to ELU; they refuse Erf outside the exact-GELU pattern.
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.engine import fixedpoint
from npuready.engine.ops import lut
from npuready.errors import InputError
from npuready.graph.hardsigmoid import DEFAULT_ALPHA, DEFAULT_BETA, scales_input
from npuready.graph.view import Node
from npuready.tflite.builder import QParams
from npuready.tflite.context import Const, Context
from npuready.tflite.ops.common import ACT, tfl_shape


class _Q:
    def __init__(self, qp: QParams):
        self.scale, self.zero_point = float(np.float32(qp.scale[0])), int(qp.zero_point[0])


def _float_const(ctx: Context, label: str, value: float) -> int:
    return ctx.add_const(label, Const(np.array(value, np.float32)), dtype="float32")


def _hard_sigmoid_float(ctx: Context, node: Node) -> None:
    """clip(αx + β, 0, 1) = relu6(6αx + 6β) / 6; the MUL by 6α is left out when 6α is 1 (PyTorch's Hardsigmoid)."""
    alpha, beta = np.float32(node.attr("alpha", DEFAULT_ALPHA)), np.float32(node.attr("beta", DEFAULT_BETA))
    x = ctx.value(node.inputs[0])
    out = node.outputs[0]
    shape = ctx.b.shape_of(x.index)
    src = x.index
    if scales_input(alpha):
        src = ctx.tmp(f"{out}#scaled", shape, None)
        ctx.op("MUL", [x.index, _float_const(ctx, f"{out}#six_alpha", 6 * alpha)], [src], fb.MulOptionsT())
    shifted = ctx.tmp(f"{out}#relu6", shape, None)
    ctx.op("ADD", [src, _float_const(ctx, f"{out}#six_beta", 6 * beta)], [shifted],
           fb.AddOptionsT(fusedActivationFunction=ACT.RELU6))
    ctx.op("MUL", [shifted, _float_const(ctx, f"{out}#one_sixth", 1 / 6)],
           [ctx.new_value(out, tfl_shape(ctx, out, x.perm), x.perm)], fb.MulOptionsT())


def lower_table(ctx: Context, node: Node) -> None:
    if not ctx.int8 and node.op_type == "HardSigmoid":
        _hard_sigmoid_float(ctx, node)
        return
    if not ctx.int8:
        raise InputError(f"node {node.name!r}: op {node.op_type} has no float TFLite lowering (outside the exact "
                         "GELU pattern)")
    quantised = set(ctx.quant.act) | set(ctx.quant.aliases)
    nodes = lut.chain(ctx.graph, node, quantised)
    for n in nodes[1:]:
        ctx.consumed.add(n.name)
        ctx.fused[n.inputs[0]] = nodes[-1].outputs[0]
    out = nodes[-1].outputs[0]
    x = ctx.value(node.inputs[0])
    x_q, out_q = ctx.tensor_qparams(x.index), ctx.qparams(out)
    t = lut.table(ctx.graph, nodes, _Q(x_q), _Q(out_q), -128, 127, fixedpoint.resolve_rounding(
        fixedpoint.DEFAULT_PROFILE, "Lut"))
    shape = ctx.b.shape_of(x.index)
    wide, idx = ctx.b.tensor(f"{out}#codes", shape, "int32"), ctx.b.tensor(f"{out}#index", shape, "int32")
    ctx.op("CAST", [x.index], [wide], fb.CastOptionsT(inDataType=fb.TensorType.INT8, outDataType=fb.TensorType.INT32))
    ctx.op("ADD", [wide, ctx.int_const(f"{out}#offset", 128)], [idx], fb.AddOptionsT())
    table = ctx.b.tensor(f"{out}#table", [256], "int8", data=t, qparams=out_q)
    ctx.op("GATHER", [table, idx], [ctx.new_value(out, tfl_shape(ctx, out, x.perm), x.perm)],
           fb.GatherOptionsT(axis=0, batchDims=0))


def lower_pow(ctx: Context, node: Node) -> None:
    """Pow by a constant scalar exponent: int8 → the integer engine's table (``(v + ε)^-½`` of a decomposed
    LayerNorm is such a chain); float → RSQRT (-½), SQRT (½) or POW."""
    c = ctx.const(node.inputs[1]) if len(node.inputs) == 2 else None
    if c is None or np.size(c) != 1:
        raise InputError(f"node {node.name!r} (Pow): exponent {node.inputs[-1]!r} is not a constant scalar; "
                         "only Pow by a constant scalar is exported")
    if ctx.int8:
        lower_table(ctx, node)
        return
    e = float(np.asarray(c).reshape(()))
    x = ctx.value(node.inputs[0])
    out = ctx.new_value(node.outputs[0], tfl_shape(ctx, node.outputs[0], x.perm), x.perm)
    if e in (-0.5, 0.5):
        ctx.op("RSQRT" if e < 0 else "SQRT", [x.index], [out])
    else:
        from npuready.tflite.context import Const

        ctx.op("POW", [x.index, ctx.add_const(f"{node.outputs[0]}#exponent", Const(np.array(e, np.float32)))], [out])


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "HardSigmoid": lower_table,
    "Erf": lower_table,
    "Elu": lower_table,
    "Pow": lower_pow,  # by a constant scalar (a decomposed LayerNorm's (v + eps)^-1/2)
}
