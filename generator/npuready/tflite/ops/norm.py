"""LayerNormalization (float only), decomposed into TFLite builtins, and the exact-GELU pattern.

LayerNormalization(x, gamma, beta, axis, epsilon) →
``mean = MEAN(x); d = x - mean; var = MEAN(d*d); y = d * RSQRT(var + eps) * gamma + beta``
(the input is brought to ONNX axis order; the normalised axes are the trailing ones).

``Div(x, √2) → Erf → Add(1) → Mul(x) → Mul(0.5)`` (torch's exact GELU at opset < 20) becomes one
GELU(approximate=False); the four intermediate ONNX tensors are recorded as fused.
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.engine.ops.mul import scalar_operand
from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.builder import QParams
from npuready.tflite.context import Const, Context, identity
from npuready.tflite.ops.common import fuse_activation
from npuready.tflite.ops.elementwise import lower_binary


def lower_layernorm(ctx: Context, node: Node) -> None:
    if ctx.int8:
        raise InputError(f"node {node.name!r} (LayerNormalization): TFLite has no int8 LayerNorm; decompose it "
                         "before quantising (npuready.quant.decompose_layernorm: the MEAN/ADD/MUL/RSQRT-table "
                         "sequence a converter emits) or keep it on the host")
    if len(node.outputs) > 1 and any(node.outputs[1:]):
        raise InputError(f"node {node.name!r} (LayerNormalization): Mean/InvStdDev outputs are not exported")
    rank = len(ctx.shape(node.inputs[0]))
    axis = int(node.attr("axis", -1)) % rank
    eps = float(node.attr("epsilon", 1e-5))
    x = ctx.value(node.inputs[0], identity(rank))
    shape = ctx.b.shape_of(x.index)
    red = [d if i < axis else 1 for i, d in enumerate(shape)]
    out = node.outputs[0]
    axes = ctx.int_const(f"{out}#axes", list(range(axis, rank)))
    t = {k: ctx.tmp(f"{out}#{k}", red if k in ("mean", "var", "vare", "rstd") else shape, None)
         for k in ("mean", "d", "sq", "var", "vare", "rstd", "norm", "scaled")}
    ctx.op("MEAN", [x.index, axes], [t["mean"]], fb.ReducerOptionsT(keepDims=True))
    ctx.op("SUB", [x.index, t["mean"]], [t["d"]], fb.SubOptionsT())
    ctx.op("MUL", [t["d"], t["d"]], [t["sq"]], fb.MulOptionsT())
    ctx.op("MEAN", [t["sq"], axes], [t["var"]], fb.ReducerOptionsT(keepDims=True))
    ctx.op("ADD", [t["var"], ctx.add_const(f"{out}#eps", Const(np.array(eps, np.float32)))], [t["vare"]],
           fb.AddOptionsT())
    ctx.op("RSQRT", [t["vare"]], [t["rstd"]])
    ctx.op("MUL", [t["d"], t["rstd"]], [t["norm"]], fb.MulOptionsT())
    gamma = ctx.const(node.inputs[1])
    beta = ctx.const(node.inputs[2]) if len(node.inputs) > 2 and node.inputs[2] else None
    if gamma is None or (len(node.inputs) > 2 and node.inputs[2] and beta is None):
        raise InputError(f"node {node.name!r} (LayerNormalization): scale and bias must be constants")
    final = ctx.new_value(out, shape, identity(rank))
    g = ctx.add_const(f"{out}#gamma", Const(np.asarray(gamma, np.float32)))
    if beta is None:
        ctx.op("MUL", [t["norm"], g], [final], fb.MulOptionsT())
        return
    ctx.op("MUL", [t["norm"], g], [t["scaled"]], fb.MulOptionsT())
    ctx.op("ADD", [t["scaled"], ctx.add_const(f"{out}#beta", Const(np.asarray(beta, np.float32)))], [final],
           fb.AddOptionsT())


def _const_operand(ctx: Context, node: Node, other: str) -> float | None:
    """The scalar constant operand of a binary node whose other operand is ``other``."""
    if len(node.inputs) != 2 or other not in node.inputs:
        return None
    c = ctx.const(node.inputs[1 - list(node.inputs).index(other)])
    return float(c) if c is not None and np.asarray(c).size == 1 else None


def _match_gelu(ctx: Context, div: Node) -> list[Node] | None:
    x = div.inputs[0]
    c = ctx.const(div.inputs[1])
    if c is None or np.asarray(c).size != 1 or abs(float(c) - np.sqrt(2.0)) > 1e-4:
        return None
    erf = ctx.single_consumer(div.outputs[0])
    if erf is None or erf.op_type != "Erf":
        return None
    add = ctx.single_consumer(erf.outputs[0])
    if add is None or add.op_type != "Add" or _const_operand(ctx, add, erf.outputs[0]) != 1.0:
        return None
    mul = ctx.single_consumer(add.outputs[0])
    if mul is None or mul.op_type != "Mul" or set(mul.inputs) != {x, add.outputs[0]}:
        return None
    half = ctx.single_consumer(mul.outputs[0])
    if half is not None and half.op_type == "Mul" and _const_operand(ctx, half, mul.outputs[0]) == 0.5:
        return [erf, add, mul, half]
    return None


def lower_div(ctx: Context, node: Node) -> None:
    """Div, or the head of an exact-GELU pattern (float only)."""
    chain = None if ctx.int8 else _match_gelu(ctx, node)
    if ctx.int8:
        if node.outputs[0] in ctx.quant.act:
            _lower_div_int8(ctx, node)
        else:  # the head of a unary chain (Div → Erf): the integer engine's table
            from npuready.tflite.ops.table import lower_table

            lower_table(ctx, node)
        return
    if chain is None:
        lower_binary(ctx, node)
        return
    x = ctx.value(node.inputs[0])
    out = chain[-1].outputs[0]
    prev = node.outputs[0]
    for n in chain:
        ctx.consumed.add(n.name)
        ctx.fused[prev] = out
        prev = n.outputs[0]
    shape = [ctx.shape(out)[a] for a in x.perm]
    ctx.op("GELU", [x.index], [ctx.new_value(out, shape, x.perm)], fb.GeluOptionsT(approximate=False))


def _lower_div_int8(ctx: Context, node: Node) -> None:
    """int8 Div by a constant scalar c → MUL by 1/c as an int8 constant (``engine.ops.mul.scalar_operand``,
    the integer engine's own lowering); TFLite has no int8 DIV."""
    c = ctx.const(node.inputs[1])
    if c is None or np.size(c) != 1 or float(np.asarray(c).reshape(())) == 0:
        raise InputError(f"node {node.name!r} (Div): int8 Div by {node.inputs[1]!r}, not a non-zero constant scalar; "
                         "only division by a constant scalar is exported (as MUL by its reciprocal)")
    code, scale = scalar_operand(1.0 / float(np.asarray(c).reshape(())))
    x = ctx.value(node.inputs[0])
    recip = ctx.b.tensor(f"{node.outputs[0]}#reciprocal", [], "int8", data=np.array(code, np.int8),
                         qparams=QParams.of(scale, 0))
    act, out = fuse_activation(ctx, node.outputs[0])
    ctx.op("MUL", [x.index, recip], [ctx.new_value(out, [ctx.shape(out)[a] for a in x.perm], x.perm)],
           fb.MulOptionsT(fusedActivationFunction=act))


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Div": lower_div,  # Div, or the head of Div→Erf→Add→Mul→Mul (exact GELU)
    "LayerNormalization": lower_layernorm,
}
#: lowerings that refuse int8 (QDQ) graphs outright: their ops run on the host in a quantized deployment
FLOAT_ONLY = frozenset({"LayerNormalization"})
