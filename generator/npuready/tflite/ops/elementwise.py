"""Broadcasting binary ops: Add, Sub, Mul, Div (float only), Max, Min (standalone BatchNormalization:
``batchnorm.py``).

The output keeps the axis order of the highest-rank run-time operand; constants are rank-extended
(NumPy broadcasting) and permuted to match. Add/Sub/Mul fold a following Relu/Clip(0,6).
"""
from __future__ import annotations

from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import Context, identity
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


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Add": lower_binary,
    "Sub": lower_binary,
    "Mul": lower_binary,
    "Max": lower_binary,
    "Min": lower_binary,
}
