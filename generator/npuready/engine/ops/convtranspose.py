"""ConvTranspose (2-D, group 1, no dilation), int8 × int8 → int32 scatter-accumulate → per-channel requantise.

Mirrors TFLite's reference int8 ``TransposeConv`` (per channel): every input pixel (x − zp_in) is multiplied
by each kernel tap and added at ``y·stride + tap`` of a zero int32 scratch of the full output
((in − 1)·stride + k + output_padding); the bias is added, the epilogue is ``fixedpoint.requantize`` with the
per-channel multiplier s_in·s_w[o]/s_out and the declared rounding; ONNX ``pads`` crop the full output
(begin, end), as the TFLite export does with a STRIDED_SLICE. Weights are ONNX's [C_in, C_out, kh, kw],
symmetric, per output channel (axis 1) or per tensor. The accumulation runs as float64 products of integers
(exact below 2^53), so the result is exact and independent of summation order.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp, QuantParamError
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("ConvTranspose",), ("ConvTranspose",))


def geometry(node, in_hw, kernel) -> dict:
    """Strides, pads (top, left, bottom, right), output padding and full/cropped output size of ``node``."""
    strides = [int(s) for s in node.attr("strides", [1, 1])]
    pads = [int(p) for p in node.attr("pads", [0, 0, 0, 0])]
    out_pad = [int(p) for p in node.attr("output_padding", [0, 0])]
    full = [(i - 1) * s + k + op for i, s, k, op in zip(in_hw, strides, kernel, out_pad)]
    return {"strides": strides, "pads": pads, "output_padding": out_pad, "full": full,
            "out": [full[0] - pads[0] - pads[2], full[1] - pads[1] - pads[3]]}


def check(node, x_shape, w_shape) -> None:
    """Refuse what neither the kernel nor TFLite's TRANSPOSE_CONV runs, naming the attribute."""
    if len(w_shape) != 4 or len(x_shape) != 4:
        raise InputError(f"node {node.name} (ConvTranspose): {len(w_shape) - 2}-D kernel; only 2-D transposed "
                         "convolutions run on the integer engine")
    if int(node.attr("group", 1)) != 1:
        raise InputError(f"node {node.name} (ConvTranspose): group {node.attr('group')}; only group 1 is supported")
    if any(int(d) != 1 for d in node.attr("dilations", [1, 1])):
        raise InputError(f"node {node.name} (ConvTranspose): dilations {list(node.attr('dilations'))}; TFLite's "
                         "TRANSPOSE_CONV has no dilation, export without it")
    if node.attr("auto_pad", "NOTSET") not in ("NOTSET", "VALID") or node.attr("output_shape", None) is not None:
        raise InputError(f"node {node.name} (ConvTranspose): auto_pad/output_shape given; export with explicit "
                         "pads")


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    w = b.const(node, 1)
    out, lo, hi = b.output(node)
    check(node, x.shape, w.values.shape)
    o = w.values.shape[1]
    # ----- checks -----
    if np.any(w.zero_point != 0):
        raise QuantParamError(f"weights {w.name} (node {node.name}): zero point is not 0; quantise weights "
                              "symmetrically")
    if w.scale.size not in (1, o) or (w.scale.size > 1 and o > 1 and w.axis % 4 != 1):
        raise InputError(f"node {node.name} (ConvTranspose): weight scales ({w.scale.size}, axis {w.axis}) are not "
                         f"per output channel (axis 1, {o} channels) or per tensor")
    scales = np.broadcast_to(w.scale, (o,))
    m0, shift = fixedpoint.conv_multipliers(x.scale, scales, out.scale)
    geo = geometry(node, x.shape[2:], w.values.shape[2:])
    return IntOp(node.name, "ConvTranspose", (x.name,), (out.name,), {
        "weight": w.values.astype(np.int8), "bias": b.bias(node, 2, x, scales, o),
        "strides": geo["strides"], "pads": geo["pads"], "output_padding": geo["output_padding"],
        "input_zero_point": x.zero_point, "output_zero_point": out.zero_point,
        "multiplier": m0, "shift": shift, "act_min": lo, "act_max": hi,
    }, b.rounding)


# ----- loop ---------------------------------------------------------------------------------
def accumulate(p, x: np.ndarray) -> np.ndarray:
    """int32 accumulators (N, O, OH, OW) of the cropped output as int64, bias included."""
    w = p["weight"].astype(np.float64)
    _, o, kh, kw = w.shape
    n, _, h, wd = x.shape
    sh, sw = p["strides"]
    t, l, bo, r = p["pads"]
    oph, opw = p["output_padding"]
    full_h, full_w = (h - 1) * sh + kh + oph, (wd - 1) * sw + kw + opw
    xv = x.astype(np.float64) - p["input_zero_point"]
    acc = np.zeros((n, o, full_h, full_w), np.float64)
    for i in range(kh):
        for j in range(kw):
            tap = np.einsum("nchw,co->nohw", xv, w[:, :, i, j], optimize=True)
            acc[:, :, i: i + sh * (h - 1) + 1: sh, j: j + sw * (wd - 1) + 1: sw] += tap
    acc = acc[:, :, t: full_h - bo, l: full_w - r]
    return acc.astype(np.int64) + p["bias"].astype(np.int64).reshape(1, -1, 1, 1)


# ----- epilogue -----------------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    acc = accumulate(p, inputs[0])
    return fixedpoint.requantize(acc, p["multiplier"].reshape(1, -1, 1, 1), p["shift"].reshape(1, -1, 1, 1),
                                 p["output_zero_point"], p["act_min"], p["act_max"], op.rounding)
