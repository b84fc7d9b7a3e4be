"""Add and Sub of two int8 tensors as TFLite's reference int8 Add (left shift 20, three multipliers).

Each input is offset, shifted left by 20 bits, rescaled to 2·max(s1, s2) with a multiplier < 1,
summed, and the sum rescaled to the output scale. Sub is the same kernel with the second input's
multiplier negated (as TFLite's int8 SUB does). Broadcasting follows NumPy (ONNX semantics).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import CppKernel, OpDescriptor, as_params

LEFT_SHIFT = 20


@dataclass(frozen=True)
class Params:
    """Add's integer parameters (``IntOp.params``), in ``npr_add``'s argument order after (a, b, count)."""

    input1_zero_point: int
    input2_zero_point: int
    left_shift: int
    input1_multiplier: int
    input1_shift: int
    input2_multiplier: int  # negated for Sub
    input2_shift: int
    output_multiplier: int
    output_shift: int
    output_zero_point: int
    act_min: int
    act_max: int


DESCRIPTOR = OpDescriptor(("Add", "Sub"), ("Add",), params=Params,
                          cpp=CppKernel("npr_add", head=("i8*", "i8*", "int64")))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    a, c = b.act(node, 0), b.act(node, 1)
    out, lo, hi = b.output(node)
    twice_max = 2.0 * max(float(np.float32(a.scale)), float(np.float32(c.scale)))
    m1, s1 = fixedpoint.quantize_multiplier(float(np.float32(a.scale)) / twice_max)
    m2, s2 = fixedpoint.quantize_multiplier(float(np.float32(c.scale)) / twice_max)
    if node.op_type == "Sub":
        m2 = -m2
    mo, so = fixedpoint.quantize_multiplier(twice_max / float(np.float32((1 << LEFT_SHIFT) * np.float32(out.scale))))
    return IntOp(node.name, "Add", (a.name, c.name), (out.name,), as_params(Params(
        input1_zero_point=a.zero_point, input2_zero_point=c.zero_point, left_shift=LEFT_SHIFT,
        input1_multiplier=m1, input1_shift=s1, input2_multiplier=m2, input2_shift=s2,
        output_multiplier=mo, output_shift=so, output_zero_point=out.zero_point, act_min=lo, act_max=hi,
    )), b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    r = op.rounding
    x1 = (inputs[0].astype(np.int64) - p["input1_zero_point"]) << p["left_shift"]
    x2 = (inputs[1].astype(np.int64) - p["input2_zero_point"]) << p["left_shift"]
    s1 = fixedpoint.multiply_by_quantized_multiplier_smaller_than_one(x1, p["input1_multiplier"], p["input1_shift"], r)
    s2 = fixedpoint.multiply_by_quantized_multiplier_smaller_than_one(x2, p["input2_multiplier"], p["input2_shift"], r)
    raw = s1.astype(np.int64) + s2.astype(np.int64)
    o = fixedpoint.multiply_by_quantized_multiplier_smaller_than_one(raw, p["output_multiplier"], p["output_shift"], r)
    return fixedpoint.saturate(o.astype(np.int64) + p["output_zero_point"], p["act_min"], p["act_max"])
