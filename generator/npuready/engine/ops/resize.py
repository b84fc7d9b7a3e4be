"""Resize, mode nearest, on int8 codes: TFLite's RESIZE_NEAREST_NEIGHBOR (a gather of rows and columns),
then the shared rescale epilogue when the QDQ output has other parameters (TFLite: QUANTIZE after).

Declared index rule: ONNX ``coordinate_transformation_mode`` asymmetric with ``nearest_mode`` floor
(torch's ``nn.Upsample(mode="nearest")``) is TFLite's align_corners=False, half_pixel_centers=False:
``src = min(floor(dst · (in/out)), in - 1)`` with the ratio in float32, as TFLite computes it. Only the two
spatial axes of NCHW change size. Bilinear resizing has no integer kernel yet.
"""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.errors import InputError

MODES = {("asymmetric", "floor")}


def nearest_index(size_in: int, size_out: int) -> np.ndarray:
    """Source index of each output position (TFLite: float32 ratio, floor, clamp)."""
    ratio = np.float32(size_in) / np.float32(size_out)
    return np.minimum(np.floor(np.arange(size_out, dtype=np.float32) * ratio).astype(np.int64), size_in - 1)


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    mode = node.attr("mode", "nearest")
    ctm = node.attr("coordinate_transformation_mode", "half_pixel")
    nearest = node.attr("nearest_mode", "round_prefer_floor")
    if mode != "nearest" or (ctm, nearest) not in MODES:
        raise InputError(f"node {node.name}: Resize mode={mode} coordinate_transformation_mode={ctm} "
                         f"nearest_mode={nearest}; the integer engine resizes with mode nearest, asymmetric, floor "
                         "(torch nn.Upsample(mode='nearest')) only")
    shape = b.graph.info(node.outputs[0]).shape
    if shape is None or not all(isinstance(d, int) for d in shape) or len(shape) != 4:
        raise InputError(f"node {node.name}: Resize output shape is not a static NCHW shape; export with fixed sizes")
    if tuple(shape[:2]) != tuple(x.shape[:2]):
        raise InputError(f"node {node.name}: Resize changes the batch or channel axis; only H and W may change")
    return IntOp(node.name, "Resize", (x.name,), (out.name,), {
        "rows": nearest_index(int(x.shape[2]), int(shape[2])), "cols": nearest_index(int(x.shape[3]), int(shape[3])),
        "rescale": rescale.params(x, out), "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def gather(p, x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x[:, :, p["rows"]][:, :, :, p["cols"]])


def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    return rescale.apply(p["rescale"], gather(p, inputs[0]), p["act_min"], p["act_max"], op.rounding)
