"""AveragePool on int8 codes (TFLite reference int8 AveragePool).

Sum of the real elements of each window (padding excluded, ONNX count_include_pad=0), integer mean
by ``fixedpoint.rounding_divide``, then the shared rescale/clamp epilogue.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.engine.ops.window import pool_attrs, windows
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("AveragePool",), ("AveragePool",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    if node.attr("count_include_pad", 0):
        raise InputError(f"node {node.name}: count_include_pad=1; the integer AveragePool divides by the real "
                         "elements only (TFLite semantics); re-export with count_include_pad=0")
    return IntOp(node.name, "AveragePool", (x.name,), (out.name,),
                 {**pool_attrs(node, x.shape), "rescale": rescale.params(x, out), "act_min": lo, "act_max": hi},
                 b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    win, counts = windows(inputs[0].astype(np.int64), p, fill=0)
    mean = fixedpoint.rounding_divide(win.sum(axis=(-1, -2)), counts[None, None])
    return rescale.apply(p["rescale"], mean, p["act_min"], p["act_max"], op.rounding)
