"""Elementwise Mul of two int8 tensors (TFLite reference int8 Mul): one multiplier s1·s2/s_out."""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    a, c = b.act(node, 0), b.act(node, 1)
    out, lo, hi = b.output(node)
    real = float(np.float32(a.scale)) * float(np.float32(c.scale)) / float(np.float32(out.scale))
    m, s = fixedpoint.quantize_multiplier(real)
    return IntOp(node.name, "Mul", (a.name, c.name), (out.name,), {
        "input1_zero_point": a.zero_point, "input2_zero_point": c.zero_point,
        "multiplier": m, "shift": s, "output_zero_point": out.zero_point, "act_min": lo, "act_max": hi,
    }, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    prod = (inputs[0].astype(np.int64) - p["input1_zero_point"]) * (inputs[1].astype(np.int64) - p["input2_zero_point"])
    return fixedpoint.requantize(prod, p["multiplier"], p["shift"], p["output_zero_point"], p["act_min"],
                                 p["act_max"], op.rounding)
