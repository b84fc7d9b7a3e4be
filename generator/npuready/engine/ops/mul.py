"""Elementwise Mul of two int8 tensors (TFLite reference int8 Mul): one multiplier s1·s2/s_out.

The second operand may be an activation, a quantised constant (its own int8 tensor), or — for Div by a
constant scalar c, which TFLite has no int8 kernel for — the reciprocal 1/c as an int8 constant
(``scalar_operand``: code ±127 at scale |1/c|/127, the same constant the TFLite export writes for MUL).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp, QTensor
from npuready.engine.ops.constant import quantize_operand
from npuready.engine.ops.descriptor import CppKernel, OpDescriptor, as_params
from npuready.errors import InputError


@dataclass(frozen=True)
class Params:
    """Mul's integer parameters (``IntOp.params``), in ``npr_mul``'s argument order after (a, b, count)."""

    input1_zero_point: int
    input2_zero_point: int
    multiplier: int  # s1 · s2 / s_out
    shift: int
    output_zero_point: int
    act_min: int
    act_max: int


DESCRIPTOR = OpDescriptor(("Mul", "Div"), ("Mul",), params=Params,
                          cpp=CppKernel("npr_mul", head=("i8*", "i8*", "int64")))


def scalar_operand(value: float) -> tuple[int, float]:
    """(int8 code, float32 scale) of a constant scalar operand: ±127 at |value|/127 (0 at scale 1)."""
    code, scale = quantize_operand(np.float32(value))
    return int(code), scale


def divisor(b, node) -> float | None:
    """The constant scalar a Div node divides by (plain or behind a DequantizeLinear), else None."""
    name = node.inputs[1]
    if name in b.const_dq:
        c = b.const_dq[name]
        v = (c.values.astype(np.float64) - c.zero_point) * c.scale.astype(np.float64)
    else:
        v = b.graph.constant(name)
    return None if v is None or np.size(v) != 1 else float(np.asarray(v).reshape(()))


def _reciprocal(b, node) -> QTensor:
    d = divisor(b, node)
    if d is None or d == 0:
        raise InputError(f"node {node.name}: Div by {node.inputs[1]}, which is not a non-zero constant scalar; "
                         "the integer engine (like TFLite's int8 kernels) divides by constant scalars only")
    code, scale = scalar_operand(1.0 / d)
    key = f"{node.name}#reciprocal"
    b.tensors[key] = QTensor(key, node.inputs[1], (), scale, 0)
    b.pending.append(IntOp(key, "Constant", (), (key,), {"value": np.array(code, np.int8)}, b.rounding))
    return b.tensors[key]


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    a = b.act(node, 0)
    c = _reciprocal(b, node) if node.op_type == "Div" else b.act(node, 1)
    out, lo, hi = b.output(node)
    m, s = fixedpoint.mul_multiplier(a.scale, c.scale, out.scale)
    return IntOp(node.name, "Mul", (a.name, c.name), (out.name,), as_params(Params(
        input1_zero_point=a.zero_point, input2_zero_point=c.zero_point,
        multiplier=m, shift=s, output_zero_point=out.zero_point, act_min=lo, act_max=hi,
    )), b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    prod = (inputs[0].astype(np.int64) - p["input1_zero_point"]) * (inputs[1].astype(np.int64) - p["input2_zero_point"])
    return fixedpoint.requantize(prod, p["multiplier"], p["shift"], p["output_zero_point"], p["act_min"],
                                 p["act_max"], op.rounding)
