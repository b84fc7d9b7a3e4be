"""Softmax over any axis on int8 codes: TFLite's reference int8 SOFTMAX (the axis moved last), then a requantisation.

The exponentials of the 256 possible code distances (max - x) are gemmlowp fixed-point values computed
at export (``fixedpoint.tflite_softmax_params``); at run time each row sums them in Q12, takes gemmlowp's
fixed-point reciprocal and scales, giving codes at 1/256 and -128 (``fixedpoint.tflite_softmax``). When
the QDQ output has other parameters the codes are requantised (TFLite's QUANTIZE int8 → int8).
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp, QTensor
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Softmax",), ("Softmax",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    axis = int(node.attr("axis", -1 if b.graph.opsets.get("", 13) >= 13 else 1)) % len(x.shape)
    if b.graph.opsets.get("", 13) < 13 and axis != len(x.shape) - 1:
        raise InputError(f"node {node.name}: Softmax before opset 13 flattens from axis {axis}; re-export at opset "
                         ">= 13 or normalise the last axis")
    if axis == 0:
        b.batchable = False
    table, acc_bits = fixedpoint.tflite_softmax_params(x.scale)
    fixed = QTensor("softmax", "softmax", (), 1.0 / 256.0, -128)
    return IntOp(node.name, "Softmax", (x.name,), (out.name,), {
        "axis": axis, "exp_table": table, "acc_bits": acc_bits, "rescale": rescale.params(fixed, out),
        "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    axis = p.get("axis", inputs[0].ndim - 1)
    y = fixedpoint.tflite_softmax(np.moveaxis(inputs[0], axis, -1), p["exp_table"], p["acc_bits"])
    return rescale.apply(p["rescale"], np.moveaxis(y, -1, axis), p["act_min"], p["act_max"], op.rounding)
