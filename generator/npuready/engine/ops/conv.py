"""Conv (regular, depthwise, grouped), int8 × int8 → int32 accumulate → per-channel requantise.

Mirrors TFLite's reference ``ConvPerChannel`` / ``DepthwiseConvPerChannel``: padding contributes
``input_zero_point`` (0 after the offset), weights are symmetric (zero point 0), the bias is int32
at its stored scale, which must be ``s_in * s_w[c]`` (``Builder.bias`` refuses another), the epilogue is
``fixedpoint.requantize`` with the declared rounding.
Accumulation runs as BLAS float matrix products: float32 when K·255·max|w| < 2^24, else float64
(< 2^53); every partial sum is then an exactly representable integer, so the result is exact and
independent of summation order.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.exact_accumulate import exact_dtype
from npuready.engine.intgraph import IntOp, QuantParamError
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Conv",), ("Conv",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    w = b.const(node, 1)
    out, lo, hi = b.output(node)
    weight = w.values
    if weight.ndim != 4:
        raise InputError(f"node {node.name}: Conv with {weight.ndim - 2}-D kernel; only 2-D convolutions run on "
                         "the integer engine")
    o = weight.shape[0]
    # ----- checks -----
    if np.any(w.zero_point != 0):
        raise QuantParamError(f"weights {w.name} (node {node.name}): zero point is not 0; quantise weights "
                              "symmetrically")
    if w.scale.size not in (1, o):
        raise InputError(f"node {node.name}: weight scales ({w.scale.size}) do not match {o} output channels")
    scales = np.broadcast_to(w.scale, (o,))
    m0, shift = fixedpoint.conv_multipliers(x.scale, scales, out.scale)
    group = int(node.attr("group", 1))
    pads = list(node.attr("pads", [0, 0, 0, 0]))
    if node.attr("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        raise InputError(f"node {node.name}: auto_pad={node.attr('auto_pad')}; export with explicit pads")
    return IntOp(node.name, "Conv", (x.name,), (out.name,), {
        "weight": weight.astype(np.int8),
        "bias": b.bias(node, 2, x, scales, o),
        "strides": list(node.attr("strides", [1, 1])), "dilations": list(node.attr("dilations", [1, 1])),
        "pads": pads, "group": group, "input_zero_point": x.zero_point, "output_zero_point": out.zero_point,
        "multiplier": m0, "shift": shift, "act_min": lo, "act_max": hi,
    }, b.rounding)


# ----- loop ---------------------------------------------------------------------------------
def accumulate(p, x: np.ndarray) -> np.ndarray:
    """int32 accumulators (N, O, OH, OW) as int64, bias included."""
    wq = p["weight"]
    o, cg, kh, kw = wq.shape
    sh, sw = p["strides"]
    dh, dw = p["dilations"]
    t, l, bo, r = p["pads"]
    dt = exact_dtype(wq, cg * kh * kw)
    w = wq.astype(dt)
    xi = np.pad(x.astype(dt) - dt(p["input_zero_point"]), ((0, 0), (0, 0), (t, bo), (l, r)))
    n, c, hp, wp = xi.shape
    oh = (hp - dh * (kh - 1) - 1) // sh + 1
    ow = (wp - dw * (kw - 1) - 1) // sw + 1
    g = p["group"]

    def tap(src, i, j):
        return src[:, :, i * dh: i * dh + sh * (oh - 1) + 1: sh, j * dw: j * dw + sw * (ow - 1) + 1: sw]

    if g == c and cg == 1:  # depthwise: one multiply-add per kernel tap over all channels
        mult = o // c
        xr = np.repeat(xi, mult, axis=1) if mult > 1 else xi
        acc = np.zeros((n, o, oh, ow), dt)
        for i in range(kh):
            for j in range(kw):
                acc += tap(xr, i, j) * w[None, :, 0, i, j, None, None]
    else:
        cols = np.empty((n, c, kh, kw, oh, ow), dt)  # im2col, one strided copy per kernel tap
        for i in range(kh):
            for j in range(kw):
                cols[:, :, i, j] = tap(xi, i, j)
        if g == 1:  # batched GEMM (O×K) @ (N, K, P) -> (N, O, P): already NCHW
            acc = np.matmul(w.reshape(o, -1), cols.reshape(n, c * kh * kw, oh * ow)).reshape(n, o, oh, ow)
        else:
            og = o // g
            colg = cols.reshape(n, g, cg * kh * kw, oh * ow)
            acc = np.matmul(w.reshape(g, og, cg * kh * kw), colg).reshape(n, o, oh, ow)
    return acc.astype(np.int64) + p["bias"].astype(np.int64)[None, :, None, None]


# ----- epilogue -----------------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    acc = accumulate(p, inputs[0])
    return fixedpoint.requantize(acc, p["multiplier"][None, :, None, None], p["shift"][None, :, None, None],
                                 p["output_zero_point"], p["act_min"], p["act_max"], op.rounding)
