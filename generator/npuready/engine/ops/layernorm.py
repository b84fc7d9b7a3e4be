"""LayerNormalization over the last axis on int8 codes, integer-only (declared: npuready integer LayerNorm).

Per row of C codes: xi = x - zp_in; d = C·xi - Σxi (= C·(x - mean), exact); v = Σd² + ε_q with
ε_q = round(ε·C³/s_in²); r = isqrt(v·2^(2F)) (exact integer square root); the normalised value is
d·√C·2^F / r. γ and β are folded at export into gq = round(γ·√C/s_out·2^G) and bq = round(β/s_out·2^G),
so out = zp_out + round((round(d·gq·2^F / r) + bq) / 2^G), ties away from zero, clamped. No float at
run time. Not a TFLite builtin: compared to fake-quant (float LayerNorm + QuantizeLinear).
"""
from __future__ import annotations

import math

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("LayerNormalization",), ("LayerNorm",))


def _dequant(c) -> np.ndarray:
    return (c.values.astype(np.float64) - c.zero_point) * c.scale.astype(np.float64)


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    rank = len(x.shape)
    axis = int(node.attr("axis", -1)) % rank
    if axis != rank - 1:
        raise InputError(f"node {node.name}: LayerNormalization over axes from {axis}; the integer engine "
                         "normalises the last axis only")
    c = int(x.shape[-1])
    gamma = _dequant(b.const(node, 1)) if len(node.inputs) > 1 else np.ones(c)
    beta = _dequant(b.const(node, 2)) if len(node.inputs) > 2 and node.inputs[2] else np.zeros(c)
    eps = float(node.attr("epsilon", 1e-5))
    s_in, s_out = float(np.float32(x.scale)), float(np.float32(out.scale))
    eps_q = int(fixedpoint.round_to_int(eps * c ** 3 / s_in ** 2))
    max_v = c * (c * 255 * 2) ** 2 + eps_q
    frac = max(0, min(12, (61 - max_v.bit_length()) // 2))
    g_real = np.broadcast_to(gamma, (c,)) * math.sqrt(c) / s_out
    gbits = max(0, min(16, 24 - int(math.ceil(math.log2(max(np.abs(g_real).max(), 1e-12))))))
    return IntOp(node.name, "LayerNorm", (x.name,), (out.name,), {
        "input_zero_point": x.zero_point, "output_zero_point": out.zero_point, "eps": eps_q, "frac_bits": frac,
        "gamma_bits": gbits, "gamma": fixedpoint.round_to_int(g_real * (1 << gbits)),
        "beta": fixedpoint.round_to_int(np.broadcast_to(beta, (c,)) / s_out * (1 << gbits)),
        "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    xi = inputs[0].astype(np.int64) - p["input_zero_point"]
    c = xi.shape[-1]
    d = c * xi - xi.sum(axis=-1, keepdims=True)
    v = (d * d).sum(axis=-1, keepdims=True) + p["eps"]
    r = np.maximum(fixedpoint.isqrt(v << (2 * p["frac_bits"])), 1)
    t = fixedpoint.rounding_divide((d * p["gamma"]) << p["frac_bits"], r)
    q = fixedpoint.rounding_divide(t.astype(np.int64) + p["beta"], np.int64(1) << p["gamma_bits"])
    return fixedpoint.saturate(q.astype(np.int64) + p["output_zero_point"], p["act_min"], p["act_max"])
