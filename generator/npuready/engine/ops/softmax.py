"""Softmax over the last axis on int8 codes, integer-only (declared: npuready exp-table softmax).

d = max(x) - x per row (0..255); E = exp_table[d] (2^15 fixed point, built at export by
``fixedpoint.exp_table``); out = zp_out + round(E·M0 / (ΣE·2^(31-shift))) with (M0, shift) = 1/s_out,
ties away from zero, clamped. Not TFLite's gemmlowp-exp softmax: compared to fake-quant, not to LiteRT.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.errors import InputError

BITS = 15


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    axis = int(node.attr("axis", -1)) % len(x.shape)
    if axis != len(x.shape) - 1:
        raise InputError(f"node {node.name}: Softmax over axis {axis}; the integer engine normalises the last axis")
    m, s = fixedpoint.quantize_multiplier(1.0 / float(np.float32(out.scale)))
    return IntOp(node.name, "Softmax", (x.name,), (out.name,), {
        "table": fixedpoint.exp_table(x.scale, BITS), "multiplier": m, "shift": s,
        "output_zero_point": out.zero_point, "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    x = inputs[0].astype(np.int64)
    e = p["table"][x.max(axis=-1, keepdims=True) - x]
    total = e.sum(axis=-1, keepdims=True)
    num = e * p["multiplier"]
    den = total << (31 - p["shift"])
    q = fixedpoint.rounding_divide(num, den)
    return fixedpoint.saturate(q.astype(np.int64) + p["output_zero_point"], p["act_min"], p["act_max"])
