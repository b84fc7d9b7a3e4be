"""Pad, mode constant → PAD (value 0) or PADV2 (another value), in the stored axis order.

int8: the value is the integer engine's code (``fixedpoint.quantize_float`` at the input's quantisation,
``engine.ops.pad``); the kernel keeps the input's scale, a differing QDQ output scale gets a requantize.
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.engine import fixedpoint
from npuready.engine.ops.pad import pad_widths
from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import Context
from npuready.tflite.ops.common import tfl_shape


def lower_pad(ctx: Context, node: Node) -> None:
    x_name, out = node.inputs[0], node.outputs[0]
    if node.attr("mode", "constant") != "constant":
        raise InputError(f"node {node.name!r} (Pad): mode {node.attr('mode')}; only constant padding is exported")
    shape = ctx.shape(x_name)
    pads = ctx.const(node.inputs[1]) if len(node.inputs) > 1 and node.inputs[1] else node.attr("pads")
    axes = ctx.const(node.inputs[3]) if len(node.inputs) > 3 and node.inputs[3] else None
    widths = pad_widths(node, len(shape), pads, axes)
    value = ctx.const(node.inputs[2]) if len(node.inputs) > 2 and node.inputs[2] else node.attr("value", 0.0)
    value = float(np.asarray(value).reshape(()))
    x = ctx.value(x_name)
    paddings = ctx.int_const(f"{out}#pads", [widths[a] for a in x.perm])
    inputs = [x.index, paddings]
    if ctx.int8:
        qp = ctx.tensor_qparams(x.index)
        code = fixedpoint.quantize_float(np.float32(value), qp.scale[0], qp.zero_point[0])
        if int(code) != qp.zero_point[0]:
            inputs.append(ctx.b.tensor(f"{out}#value", [], "int8", data=np.array(code, np.int8), qparams=qp))
    elif value != 0.0:
        inputs.append(ctx.b.tensor(f"{out}#value", [], "float32", data=np.array(value, np.float32)))
    opname, options = ("PADV2", fb.PadV2OptionsT()) if len(inputs) == 3 else ("PAD", fb.PadOptionsT())
    ctx.emit_same_scale(opname, inputs, options, out, tfl_shape(ctx, out, x.perm), x.perm, x.index)


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Pad": lower_pad,
}
