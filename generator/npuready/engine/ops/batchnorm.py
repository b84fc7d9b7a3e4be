"""Standalone BatchNormalization (one that no Conv/Gemm absorbs) as a per-channel multiply-add on int8 codes.

The four parameters (behind a DequantizeLinear or float) fold to y = a·x + b per channel, a = γ/√(σ² + ε),
b = β − μ·a (``affine``, float64). The integer form is TFLite's reference int8 DEPTHWISE_CONV_2D with a 1×1
kernel, which is what the TFLite export writes (``tflite.ops.batchnorm``): each channel's weight is one int8
code (±127, symmetric per channel at scale |a|/127; ``channel_weights``), the bias int32 at scale
s_in·s_w[c], and acc = (x − zp_in)·w[c] + bias[c] is requantised with the per-channel multiplier
s_in·s_w[c]/s_out (``fixedpoint.conv_multipliers``) and the declared rounding. The channel axis is 1.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("BatchNormalization",), ("BatchNorm",))

#: largest bias code magnitude allowed (headroom below int32 so acc = v·w + bias cannot overflow)
BIAS_LIMIT = float(1 << 30)


def _param(b, node, idx: int) -> np.ndarray:
    """Parameter ``idx`` as float64: dequantised when stored behind a DequantizeLinear, else the float constant."""
    name = node.inputs[idx] if len(node.inputs) > idx else ""
    if name in b.const_dq:
        c = b.const_dq[name]
        # float32, as the TFLite export reads it (tflite.quant_table.strip_qdq)
        return ((c.values.astype(np.float64) - c.zero_point.reshape(-1)) * c.scale.astype(np.float64).reshape(-1)
                ).astype(np.float32).astype(np.float64)
    v = b.plain_const(node, idx) if name else None
    if v is None:
        raise InputError(f"node {node.name} (BatchNormalization): input {idx} ({name or 'missing'}) is not a "
                         "constant; scale, bias, mean and variance must be constants (inference mode)")
    return np.asarray(v, np.float64).reshape(-1)


def affine(gamma, beta, mean, var, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) of y = a·x + b per channel, float64."""
    a = np.asarray(gamma, np.float64) / np.sqrt(np.asarray(var, np.float64) + float(np.float32(eps)))
    return a, np.asarray(beta, np.float64) - np.asarray(mean, np.float64) * a


def channel_weights(a: np.ndarray, bias: np.ndarray, in_scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(int8 weights, float32 weight scales, int32 bias codes) of the per-channel multiply-add, as both the
    integer graph and the TFLite export store them: scale |a|/127 (raised where the bias would not fit in
    ±2^30 codes; 1 when a and b are 0), code round(a / scale), bias round(b / (s_in·scale))."""
    s_in = np.float32(in_scale)
    scale = np.maximum(np.abs(a) / 127.0, np.abs(bias) / (float(s_in) * BIAS_LIMIT)).astype(np.float32)
    scale = np.where(scale > 0, scale, np.float32(1.0)).astype(np.float32)
    codes = np.clip(fixedpoint.round_to_int(a / scale.astype(np.float64)), -127, 127).astype(np.int8)
    bias_scale = (s_in * scale).astype(np.float64)  # float32 product, as TFLite's bias scale
    bias_codes = fixedpoint.round_to_int(bias / bias_scale).astype(np.int32)
    return codes, scale, bias_codes


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    gamma, beta, mean, var = (_param(b, node, i) for i in range(1, 5))
    channels = x.shape[1] if len(x.shape) > 1 else 0
    # ----- checks -----
    if len(x.shape) < 2 or any(p.size not in (1, channels) for p in (gamma, beta, mean, var)):
        raise InputError(f"node {node.name} (BatchNormalization): parameters of sizes "
                         f"{[p.size for p in (gamma, beta, mean, var)]} do not match {channels} channels of input "
                         f"{node.inputs[0]} {list(x.shape)}")
    if np.any(np.broadcast_to(var, (channels,)) + float(np.float32(node.attr("epsilon", 1e-5))) <= 0):
        raise InputError(f"node {node.name} (BatchNormalization): variance + epsilon is not positive")
    a, bias = affine(*(np.broadcast_to(p, (channels,)) for p in (gamma, beta, mean, var)), node.attr("epsilon", 1e-5))
    w, w_scale, bias_codes = channel_weights(a, bias, x.scale)
    m0, shift = fixedpoint.conv_multipliers(x.scale, w_scale, out.scale)
    return IntOp(node.name, "BatchNorm", (x.name,), (out.name,), {
        "weight": w, "bias": bias_codes, "input_zero_point": x.zero_point, "output_zero_point": out.zero_point,
        "multiplier": m0, "shift": shift, "act_min": lo, "act_max": hi,
    }, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    x = inputs[0]
    shape = (1, -1) + (1,) * (x.ndim - 2)  # channel axis 1
    acc = (x.astype(np.int64) - p["input_zero_point"]) * p["weight"].astype(np.int64).reshape(shape) \
        + p["bias"].astype(np.int64).reshape(shape)
    return fixedpoint.requantize(acc, p["multiplier"].reshape(shape), p["shift"].reshape(shape),
                                 p["output_zero_point"], p["act_min"], p["act_max"], op.rounding)
