"""Pooling windows shared by MaxPool and AveragePool: ONNX attributes → strided window views.

Padding is always explicit [top, left, bottom, right]: ``auto_pad`` SAME_UPPER/SAME_LOWER becomes
TensorFlow-style SAME pads and ``ceil_mode`` adds the extra bottom/right rows and columns the last
window reaches (ONNX: a window must start inside the input or its begin padding). Windows count only
real elements (padding is never averaged), so both are exact for MaxPool and for AveragePool with
count_include_pad=0.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from npuready.errors import InputError


def same_pads(size: int, k: int, s: int, lower: bool = False) -> tuple[int, int]:
    """SAME padding (begin, end) of one axis: output ceil(size/s); the larger half after (before if lower)."""
    total = max((-(-size // s) - 1) * s + k - size, 0)
    small, big = total // 2, total - total // 2
    return (big, small) if lower else (small, big)


def ceil_extra(size: int, k: int, s: int, begin: int, end: int) -> int:
    """Extra end padding so floor-mode windows reproduce ONNX ceil_mode on one axis."""
    span = size + begin + end - k
    out = -(-span // s) + 1
    if (out - 1) * s >= size + begin:  # the last window would start in the end padding: dropped
        out -= 1
    return max((out - 1) * s + k - (size + begin + end), 0)


def explicit_pads(node, hw) -> list[int]:
    """[top, left, bottom, right] equivalent to the node's pads/auto_pad/ceil_mode on input size ``hw``."""
    k = [int(v) for v in node.attr("kernel_shape")]
    s = [int(v) for v in node.attr("strides", [1, 1])]
    auto = node.attr("auto_pad", "NOTSET")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        (t, b), (l, r) = (same_pads(n, kk, ss, auto == "SAME_LOWER") for n, kk, ss in zip(hw, k, s))
        return [t, l, b, r]
    pads = [0, 0, 0, 0] if auto == "VALID" else [int(v) for v in node.attr("pads", [0, 0, 0, 0])]
    if int(node.attr("ceil_mode", 0)):
        pads[2] += ceil_extra(hw[0], k[0], s[0], pads[0], pads[2])
        pads[3] += ceil_extra(hw[1], k[1], s[1], pads[1], pads[3])
    return pads


def pool_attrs(node, shape) -> dict:
    """Kernel, strides and explicit pads of a 2-D pooling node whose input has (static) ``shape``."""
    k = list(node.attr("kernel_shape"))
    if len(k) != 2:
        raise InputError(f"node {node.name}: {len(k)}-D pooling; the integer engine pools over 2-D windows only")
    if list(node.attr("dilations", [1, 1])) != [1, 1]:
        raise InputError(f"node {node.name}: dilated pooling is not supported by the integer engine")
    if len(shape) != 4:
        raise InputError(f"node {node.name}: pooling input of rank {len(shape)}; the integer engine needs NCHW")
    return {"kernel": k, "strides": list(node.attr("strides", [1, 1])),
            "pads": explicit_pads(node, [int(d) for d in shape[2:]])}


def windows(x: np.ndarray, p: dict, fill) -> tuple[np.ndarray, np.ndarray]:
    """(N,C,OH,OW,kh,kw) window view of ``x`` padded with ``fill``, and (OH,OW) counts of real elements."""
    kh, kw = p["kernel"]
    sh, sw = p["strides"]
    t, l, bo, r = p["pads"]
    xp = np.pad(x, ((0, 0), (0, 0), (t, bo), (l, r)), constant_values=fill)
    win = sliding_window_view(xp, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw]
    ones = np.pad(np.ones(x.shape[2:], np.int64), ((t, bo), (l, r)))
    counts = sliding_window_view(ones, (kh, kw))[::sh, ::sw].sum(axis=(-1, -2))
    return win, counts
