"""A quantised constant operand (e.g. the constant of Add/Mul): its int8 codes, no batch axis.

``quantize_operand`` quantises a float constant the quantiser left in float (e.g. onnxruntime does not
quantise Sub's constant, and a Div's divisor becomes a reciprocal): symmetric, per tensor, scale
max|v|/127 in float32, codes rounded half away from zero — the same codes the TFLite export writes.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import OpDescriptor

DESCRIPTOR = OpDescriptor((), ("Constant",))


def quantize_operand(values) -> tuple[np.ndarray, float]:
    """(int8 codes, float32 scale) of a float constant: symmetric per tensor at max|v|/127 (scale 1 when all 0)."""
    v = np.asarray(values, np.float32)
    peak = float(np.abs(v).max(initial=0.0))
    scale = float(np.float32(peak / 127.0)) if peak > 0 else 1.0
    return fixedpoint.quantize_float(v, scale, 0, lo=-127, hi=127), scale


# ----- loop + epilogue (params are set by engine.export) --------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    return op.params["value"]
