"""Layout and shape ops: Reshape, Flatten, Squeeze, Unsqueeze → RESHAPE; Transpose; Concat;
Identity / Dropout (aliases; int8: a QUANTIZE when the QDQ model quantises the output differently).

RESHAPE reads memory in order, so its input is first brought to ONNX axis order (a TRANSPOSE) unless
the stored order already has the same memory order (e.g. NHWC with H = W = 1). ONNX Transpose costs
nothing: the output is the same TFLite tensor with a composed ``perm`` (a real TRANSPOSE is emitted
only in int8 mode when the QDQ model gives the output other quantization parameters).
"""
from __future__ import annotations

from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import Context, Value, identity
from npuready.tflite.ops.common import tfl_shape


def same_memory_order(v: Value) -> bool:
    """True when the stored order lists the non-unit ONNX axes in ascending order."""
    big = [a for a in v.perm if v.shape[a] != 1]
    return big == sorted(big)


def lower_reshape(ctx: Context, node: Node) -> None:
    x_name, out = node.inputs[0], node.outputs[0]
    v = ctx.value(x_name)
    if not same_memory_order(v):
        v = ctx.value(x_name, identity(len(v.perm)))
    shape = list(ctx.shape(out))
    new_shape = ctx.int_const(f"{out}#shape", shape)
    perm = identity(len(shape))
    ctx.emit_same_scale("RESHAPE", [v.index, new_shape], fb.ReshapeOptionsT(newShape=shape), out, shape, perm,
                        v.index, out_qp=None if not ctx.int8 or out in ctx.quant.act else ctx.tensor_qparams(v.index))


def lower_transpose(ctx: Context, node: Node) -> None:
    x_name, out = node.inputs[0], node.outputs[0]
    v = ctx.value(x_name)
    rank = len(v.perm)
    t = [int(p) for p in node.attr("perm", list(reversed(range(rank))))]
    inv = [t.index(a) for a in range(rank)]  # input ONNX axis a becomes output axis inv[a]
    out_perm = tuple(inv[a] for a in v.perm)
    same = not ctx.int8 or out not in ctx.quant.act or ctx.quant.act[out].same_as(ctx.tensor_qparams(v.index))
    if same:
        ctx.values[out] = Value(v.index, out_perm, ctx.shape(out))
        return
    q = [v.perm.index(t[j]) for j in range(rank)]
    perm_t = ctx.int_const(f"{out}#tperm", q)
    ctx.emit_same_scale("TRANSPOSE", [v.index, perm_t], fb.TransposeOptionsT(), out,
                        tfl_shape(ctx, out, identity(rank)), identity(rank), v.index)


def lower_identity(ctx: Context, node: Node) -> None:
    if node.op_type == "Dropout" and len(node.outputs) > 1 and node.outputs[1]:
        raise InputError(f"node {node.name!r} (Dropout): the mask output is not exported")
    v, out = ctx.value(node.inputs[0]), node.outputs[0]
    if ctx.int8 and out in ctx.quant.act and not ctx.quant.act[out].same_as(ctx.tensor_qparams(v.index)):
        # quantised again with other parameters (the integer engine's Rescale): a requantising QUANTIZE
        ctx.op("QUANTIZE", [v.index], [ctx.new_value(out, ctx.b.shape_of(v.index), v.perm)])
        return
    ctx.values[out] = v


def lower_concat(ctx: Context, node: Node) -> None:
    out = node.outputs[0]
    rank = len(ctx.shape(out))
    axis = int(node.attr("axis")) % rank
    perm = next((ctx.values[n].perm for n in node.inputs if n in ctx.values and len(ctx.values[n].perm) == rank),
                identity(rank))
    ins = []
    out_qp = ctx.qparams(out) if ctx.int8 else None
    for n in node.inputs:
        v = ctx.value_for_broadcast(n, perm)
        if len(v.perm) != rank:
            raise InputError(f"node {node.name!r} (Concat): input {n!r} has another rank")
        idx = v.index
        if ctx.int8 and not ctx.tensor_qparams(idx).same_as(out_qp):
            idx = ctx.requantize(idx, out_qp, f"{n}#to_{out}",
                                 "int8 CONCATENATION needs every input at the output's scale/zero point")
        ins.append(idx)
    ctx.op("CONCATENATION", ins, [ctx.new_value(out, tfl_shape(ctx, out, perm), perm)],
           fb.ConcatenationOptionsT(axis=perm.index(axis), fusedActivationFunction=0))


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Reshape": lower_reshape,
    "Flatten": lower_reshape,
    "Squeeze": lower_reshape,
    "Unsqueeze": lower_reshape,
    "Transpose": lower_transpose,
    "Concat": lower_concat,
    "Identity": lower_identity,
    "Dropout": lower_identity,
}
