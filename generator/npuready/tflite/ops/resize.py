"""Resize → RESIZE_NEAREST_NEIGHBOR or RESIZE_BILINEAR (NHWC), with the integer engine's mode rules.

Nearest: only ONNX asymmetric + floor (torch's nn.Upsample nearest), TFLite's align_corners=False,
half_pixel_centers=False. Linear: half_pixel / pytorch_half_pixel → half_pixel_centers=True, asymmetric →
False (``engine.ops.resize``). int8: the kernels keep the input's scale; a differing QDQ output scale gets a
requantize.
"""
from __future__ import annotations

from ai_edge_litert import schema_py_generated as fb

from npuready.engine.ops.resize import LINEAR, unsupported
from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import NHWC, Context
from npuready.tflite.ops.common import tfl_shape


def lower_resize(ctx: Context, node: Node) -> None:
    x_name, out = node.inputs[0], node.outputs[0]
    why = unsupported(node)
    if why:
        raise InputError(f"node {node.name!r} (Resize): {why}")
    mode, ctm = node.attr("mode", "nearest"), node.attr("coordinate_transformation_mode", "half_pixel")
    xs, ys = ctx.shape(x_name), ctx.shape(out)
    if len(xs) != 4 or tuple(xs[:2]) != tuple(ys[:2]):
        raise InputError(f"node {node.name!r} (Resize): only the H and W axes of an NCHW tensor may change size")
    x = ctx.value(x_name, NHWC)
    size = ctx.int_const(f"{out}#size", [ys[2], ys[3]])
    if mode == "linear":
        opname, opts = "RESIZE_BILINEAR", fb.ResizeBilinearOptionsT(alignCorners=False, halfPixelCenters=LINEAR[ctm])
    else:
        opname, opts = "RESIZE_NEAREST_NEIGHBOR", fb.ResizeNearestNeighborOptionsT(alignCorners=False,
                                                                                   halfPixelCenters=False)
    ctx.emit_same_scale(opname, [x.index, size], opts, out, tfl_shape(ctx, out, NHWC), NHWC, x.index)


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Resize": lower_resize,
}
