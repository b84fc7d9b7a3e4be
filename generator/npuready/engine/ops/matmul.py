"""MatMul of two int8 activations (attention scores, attention × values), like TFLite's int8 BATCH_MATMUL.

acc = Σ_k (a - zp_a)(b - zp_b) exactly (BLAS on exactly representable floats), then the common epilogue
with the multiplier s_a·s_b/s_out and the declared rounding. NumPy broadcasting over leading axes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import CppKernel, OpDescriptor, as_params


@dataclass(frozen=True)
class Params:
    """MatMul's integer parameters (``IntOp.params``), in ``npr_matmul``'s argument order after
    (a, b, batch, m, k, n)."""

    input1_zero_point: int
    input2_zero_point: int
    multiplier: int  # s_a · s_b / s_out
    shift: int
    output_zero_point: int
    act_min: int
    act_max: int


DESCRIPTOR = OpDescriptor((), ("MatMul",), params=Params,
                          cpp=CppKernel("npr_matmul", head=("i8*", "i8*", "int64", "int", "int", "int")))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    a, c = b.act(node, 0), b.act(node, 1)
    out, lo, hi = b.output(node)
    m, s = fixedpoint.matmul_multiplier(a.scale, c.scale, out.scale)
    return IntOp(node.name, "MatMul", (a.name, c.name), (out.name,), as_params(Params(
        input1_zero_point=a.zero_point, input2_zero_point=c.zero_point, multiplier=int(m), shift=int(s),
        output_zero_point=out.zero_point, act_min=lo, act_max=hi)), b.rounding)


# ----- loop ---------------------------------------------------------------------------------
def accumulate(p, a: np.ndarray, c: np.ndarray) -> np.ndarray:
    k = a.shape[-1]
    dt = np.float32 if k * 255 * 255 < (1 << 24) else np.float64
    x = a.astype(dt) - dt(p["input1_zero_point"])
    y = c.astype(dt) - dt(p["input2_zero_point"])
    return np.matmul(x, y).astype(np.int64)


# ----- epilogue -----------------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    return fixedpoint.requantize(accumulate(p, inputs[0], inputs[1]), p["multiplier"], p["shift"],
                                 p["output_zero_point"], p["act_min"], p["act_max"], op.rounding)
