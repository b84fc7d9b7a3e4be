"""GlobalAveragePool / ReduceMean over H and W on int8 codes (TFLite reference int8 MEAN over axes 1, 2).

acc = sum(x) - zp_in·H·W; out = MultiplyByQuantizedMultiplier(acc, M0', shift') + zp_out, clamped, where
(M0', shift') folds 1/(H·W) into the s_in/s_out multiplier (``fixedpoint.mean_multiplier``, TFLite's
integer QuantizedMeanOrSum; checked bit-exact against LiteRT BUILTIN_REF). Keeps the reduced axes (ONNX keepdims=1) or drops them (keepdims=0).
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.errors import InputError


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    keepdims = 1
    if node.op_type == "ReduceMean":
        axes = node.attr("axes")
        if axes is None and len(node.inputs) > 1:
            c = b.plain_const(node, 1)
            axes = None if c is None else c.tolist()
        rank = len(x.shape)
        if axes is None or sorted(a % rank for a in axes) != [2, 3] or rank != 4:
            raise InputError(f"node {node.name}: ReduceMean over axes {axes}; the integer engine reduces NCHW over (2, 3) only")
        keepdims = int(node.attr("keepdims", 1))
    m, s = fixedpoint.quantize_multiplier(float(np.float32(x.scale)) / float(np.float32(out.scale)))
    count = int(x.shape[2] * x.shape[3])
    m, s = fixedpoint.mean_multiplier(m, s, count)
    return IntOp(node.name, "Mean", (x.name,), (out.name,), {
        "input_zero_point": x.zero_point, "output_zero_point": out.zero_point, "multiplier": m, "shift": s,
        "count": count, "keepdims": keepdims, "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    x = inputs[0]
    if x.shape[2] * x.shape[3] != p["count"]:
        raise ValueError(f"{op.name}: input has {x.shape[2] * x.shape[3]} elements per plane, exported for {p['count']}")
    acc = x.astype(np.int64).sum(axis=(2, 3), keepdims=bool(p["keepdims"])) - p["input_zero_point"] * p["count"]
    mean = fixedpoint.multiply_by_quantized_multiplier(acc, p["multiplier"], p["shift"], op.rounding)
    return fixedpoint.saturate(mean.astype(np.int64) + p["output_zero_point"], p["act_min"], p["act_max"])
