"""PRelu with a constant int8 slope on int8 codes (TFLite reference int8 PRELU): two multipliers.

v = x - zp_in; out = zp_out + (v >= 0 ? M1·v : M2·v·(alpha - zp_alpha)), clamped, with M1 = s_in/s_out and
M2 = s_in·s_alpha/s_out (the declared rounding of ``fixedpoint.requantize``). The slope broadcasts to the
input as ONNX's unidirectional broadcasting does, whatever its shape (scalar, [C] of a rank-2 input, [C,1,1],
[1,C,1,1]). A slope behind a DequantizeLinear is used as stored (per tensor); a float slope the quantiser left
unquantised gets the codes ``constant.quantize_operand`` gives (symmetric at max|a|/127), which the TFLite
export writes too.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp, QConst
from npuready.engine.ops.constant import quantize_operand
from npuready.engine.ops.descriptor import CppKernel, OpDescriptor, as_params
from npuready.errors import InputError


@dataclass(frozen=True)
class Params:
    """PRelu's integer parameters (``IntOp.params``); the ints, in this order, are ``npr_prelu``'s arguments
    between (x, alpha broadcast to x, count) and (rounding, y)."""

    alpha: np.ndarray  # int8 slope codes
    alpha_zero_point: int
    input_zero_point: int
    output_zero_point: int
    identity_multiplier: int  # M1 = s_in / s_out
    identity_shift: int
    alpha_multiplier: int  # M2 = s_in · s_alpha / s_out
    alpha_shift: int
    act_min: int
    act_max: int


DESCRIPTOR = OpDescriptor(("PRelu",), ("PRelu",), params=Params,
                          cpp=CppKernel("npr_prelu", head=("i8*", "i8*", "int64")))


def _slope(b, node) -> QConst:
    """The slope as int8 codes: stored behind a DequantizeLinear, or a float constant quantised here."""
    name = node.inputs[1]
    if name in b.const_dq:
        return b.const_dq[name]
    value = b.plain_const(node, 1)
    if value is None or np.asarray(value).dtype.kind != "f":
        raise InputError(f"node {node.name} (PRelu): slope {name} is not a constant; the integer engine (like "
                         "TFLite's int8 PRELU) needs a constant slope")
    codes, scale = quantize_operand(value)
    return QConst(codes.astype(np.int64), np.array([scale], np.float32), np.zeros(1, np.int64), 0, name)


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    slope = _slope(b, node)
    out, lo, hi = b.output(node)
    if slope.scale.size != 1 or np.any(slope.values < -128) or np.any(slope.values > 127):
        raise InputError(f"node {node.name}: PRelu slope {node.inputs[1]} is not a per-tensor int8 constant; "
                         "quantise it per tensor as int8")
    s_in, s_out = float(np.float32(x.scale)), float(np.float32(out.scale))
    m1, s1 = fixedpoint.quantize_multiplier(s_in / s_out)
    m2, s2 = fixedpoint.quantize_multiplier(s_in * float(np.float32(slope.scale[0])) / s_out)
    return IntOp(node.name, "PRelu", (x.name,), (out.name,), as_params(Params(
        alpha=slope.values.astype(np.int8), alpha_zero_point=int(slope.zero_point[0]),
        input_zero_point=x.zero_point, output_zero_point=out.zero_point, identity_multiplier=m1,
        identity_shift=s1, alpha_multiplier=m2, alpha_shift=s2, act_min=lo, act_max=hi)), b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = Params(**op.params)
    v = inputs[0].astype(np.int64) - p.input_zero_point
    a = np.broadcast_to(p.alpha.astype(np.int64) - p.alpha_zero_point, v.shape)
    pos = fixedpoint.multiply_by_quantized_multiplier(v, p.identity_multiplier, p.identity_shift, op.rounding)
    neg = fixedpoint.multiply_by_quantized_multiplier(v * a, p.alpha_multiplier, p.alpha_shift, op.rounding)
    return fixedpoint.saturate(np.where(v >= 0, pos, neg).astype(np.int64) + p.output_zero_point, p.act_min, p.act_max)
