"""Resize on int8 codes, nearest or bilinear, then the shared rescale epilogue when the QDQ output has other
parameters (TFLite: QUANTIZE after). Only the two spatial axes of NCHW change size.

Nearest (TFLite RESIZE_NEAREST_NEIGHBOR, a gather of rows and columns): ONNX ``coordinate_transformation_mode``
asymmetric with ``nearest_mode`` floor (torch's ``nn.Upsample(mode="nearest")``) is TFLite's
align_corners=False, half_pixel_centers=False: ``src = min(floor(dst · (in/out)), in - 1)``, ratio in float32.

Bilinear (TFLite's integer RESIZE_BILINEAR, ``ResizeBilinearInteger``): source positions in Q10 with the
ratio rounded to 1/1024 (``round(1024·in/out)``; half_pixel adds ratio/2 - 512), four int8 codes weighted by
Q10 fractions summed exactly in int64, then ``fixedpoint.rounding_divide`` by 2^20 (ties away from zero).
ONNX linear with half_pixel / pytorch_half_pixel is half_pixel_centers=True, asymmetric is False. The Q10
ratio is TFLite's declared approximation of the exact ONNX coordinates.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Resize",), ("Resize", "ResizeBilinear"))

MODES = {("asymmetric", "floor")}
LINEAR = {"half_pixel": True, "pytorch_half_pixel": True, "asymmetric": False}


def unsupported(node) -> str | None:
    """Why this Resize has no integer kernel / TFLite lowering (its mode), or None."""
    mode = node.attr("mode", "nearest")
    ctm = node.attr("coordinate_transformation_mode", "half_pixel")
    nearest = node.attr("nearest_mode", "round_prefer_floor")
    if (mode == "nearest" and (ctm, nearest) in MODES) or (mode == "linear" and ctm in LINEAR):
        return None
    return (f"Resize mode={mode} coordinate_transformation_mode={ctm} nearest_mode={nearest}; supported: nearest "
            f"(asymmetric, floor) or linear ({', '.join(sorted(LINEAR))})")


def linear_positions(size_in: int, size_out: int, half_pixel: bool, axis: str) -> dict[str, np.ndarray]:
    """TFLite ComputeInterpolationValuesInteger for every output position: Q10 source, lower and upper index."""
    scale_10 = ((1 << 10) * size_in + size_out // 2) // size_out
    pos = np.arange(size_out, dtype=np.int64) * scale_10
    if half_pixel:
        pos = pos + scale_10 // 2 - (1 << 9)
    lo = np.maximum(pos // (1 << 10), 0)  # pos >= -512: C++ truncation and floor agree after the clamp
    hi = np.minimum((pos + (1 << 10) - 1) // (1 << 10), size_in - 1)
    return {f"{axis}_pos": pos, f"{axis}_lo": lo, f"{axis}_hi": hi}


def nearest_index(size_in: int, size_out: int) -> np.ndarray:
    """Source index of each output position (TFLite: float32 ratio, floor, clamp)."""
    ratio = np.float32(size_in) / np.float32(size_out)
    return np.minimum(np.floor(np.arange(size_out, dtype=np.float32) * ratio).astype(np.int64), size_in - 1)


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    why = unsupported(node)
    if why:
        raise InputError(f"node {node.name}: {why}")
    mode, ctm = node.attr("mode", "nearest"), node.attr("coordinate_transformation_mode", "half_pixel")
    shape = b.graph.info(node.outputs[0]).shape
    if shape is None or not all(isinstance(d, int) for d in shape) or len(shape) != 4:
        raise InputError(f"node {node.name}: Resize output shape is not a static NCHW shape; export with fixed sizes")
    if tuple(shape[:2]) != tuple(x.shape[:2]):
        raise InputError(f"node {node.name}: Resize changes the batch or channel axis; only H and W may change")
    (h, w), (oh, ow) = (int(d) for d in x.shape[2:]), (int(d) for d in shape[2:])
    common = {"rescale": rescale.params(x, out), "act_min": lo, "act_max": hi}
    if mode == "linear":
        return IntOp(node.name, "ResizeBilinear", (x.name,), (out.name,), {
            **linear_positions(h, oh, LINEAR[ctm], "row"), **linear_positions(w, ow, LINEAR[ctm], "col"), **common},
            b.rounding)
    return IntOp(node.name, "Resize", (x.name,), (out.name,),
                 {"rows": nearest_index(h, oh), "cols": nearest_index(w, ow), **common}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def gather(p, x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x[:, :, p["rows"]][:, :, :, p["cols"]])


def bilinear(p, x: np.ndarray) -> np.ndarray:
    y0, y1, x0, x1 = p["row_lo"], p["row_hi"], p["col_lo"], p["col_hi"]
    x = x.astype(np.int64)
    fy = (p["row_pos"] - (y0 << 10))[:, None]  # Q10 weight of the lower-right neighbours
    fx = (p["col_pos"] - (x0 << 10))[None, :]
    acc = (x[:, :, y0][:, :, :, x0] * ((1024 - fy) * (1024 - fx)) + x[:, :, y1][:, :, :, x0] * (fy * (1024 - fx))
           + x[:, :, y0][:, :, :, x1] * ((1024 - fy) * fx) + x[:, :, y1][:, :, :, x1] * (fy * fx))
    return fixedpoint.rounding_divide(acc, 1 << 20).astype(np.int8)


def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    y = bilinear(p, inputs[0]) if op.kind == "ResizeBilinear" else gather(p, inputs[0])
    return rescale.apply(p["rescale"], y, p["act_min"], p["act_max"], op.rounding)
