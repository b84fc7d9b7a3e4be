"""Gemm / MatMul with a constant int8 weight: TFLite's reference FullyConnected (per-tensor or per-channel).

acc[n, o] = sum_k (x[n, k] - zp_in) * W[o, k] + bias[o]; epilogue ``fixedpoint.requantize``. Gemm needs
alpha = beta = 1 and transA = 0; MatMul's constant right operand is stored transposed (out × in).
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.exact_accumulate import exact_dtype
from npuready.engine.intgraph import IntOp, QuantParamError
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Gemm", "MatMul"), ("Gemm",), emits=(("MatMul", "MatMul"),))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    if node.op_type == "MatMul" and node.inputs[1] not in b.const_dq:
        from npuready.engine.ops import matmul

        return matmul.build(b, node)  # activation × activation
    x = b.act(node, 0)
    w = b.const(node, 1)
    out, lo, hi = b.output(node)
    # ----- checks -----
    if node.op_type == "Gemm" and (node.attr("alpha", 1.0) != 1.0 or node.attr("beta", 1.0) != 1.0
                                   or node.attr("transA", 0)):
        raise InputError(f"node {node.name}: Gemm with alpha/beta != 1 or transA; fold them into the weights")
    if w.values.ndim != 2:
        raise InputError(f"node {node.name}: weight rank {w.values.ndim}; the integer Gemm/MatMul needs a 2-D "
                         "constant weight")
    if np.any(w.zero_point != 0):
        raise QuantParamError(f"weights {w.name} (node {node.name}): zero point is not 0; quantise weights "
                              "symmetrically")
    trans = node.op_type == "Gemm" and node.attr("transB", 0)
    weight = w.values if trans else w.values.T  # out × in
    o = weight.shape[0]
    if w.scale.size not in (1, o):
        raise InputError(f"node {node.name}: {w.scale.size} weight scales for {o} outputs; quantise per output channel")
    scales = np.broadcast_to(w.scale, (o,))
    m0, shift = fixedpoint.conv_multipliers(x.scale, scales, out.scale)
    return IntOp(node.name, "Gemm", (x.name,), (out.name,), {
        "weight": np.ascontiguousarray(weight).astype(np.int8),
        "bias": b.bias(node, 2, x, scales, o) if node.op_type == "Gemm" else np.zeros(o, np.int32),
        "input_zero_point": x.zero_point, "output_zero_point": out.zero_point,
        "multiplier": m0, "shift": shift, "act_min": lo, "act_max": hi,
    }, b.rounding)


# ----- loop ---------------------------------------------------------------------------------
def accumulate(p, x: np.ndarray) -> np.ndarray:
    lead = x.shape[:-1]
    w = p["weight"]
    dt = exact_dtype(w, w.shape[1])
    xi = x.reshape(-1, x.shape[-1]).astype(dt) - dt(p["input_zero_point"])
    acc = (xi @ w.astype(dt).T).astype(np.int64) + p["bias"].astype(np.int64)
    return acc.reshape(*lead, -1)


# ----- epilogue -----------------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    return fixedpoint.requantize(accumulate(p, inputs[0]), p["multiplier"], p["shift"], p["output_zero_point"],
                                 p["act_min"], p["act_max"], op.rounding)
