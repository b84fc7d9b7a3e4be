"""Pooling windows shared by MaxPool and AveragePool: ONNX attributes → strided window views."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from npuready.errors import InputError


def pool_attrs(node) -> dict:
    k = list(node.attr("kernel_shape"))
    if len(k) != 2:
        raise InputError(f"node {node.name}: {len(k)}-D pooling; the integer engine pools over 2-D windows only")
    if node.attr("auto_pad", "NOTSET") not in ("NOTSET", "VALID") or node.attr("ceil_mode", 0):
        raise InputError(f"node {node.name}: auto_pad/ceil_mode pooling; export with explicit pads and floor mode")
    if list(node.attr("dilations", [1, 1])) != [1, 1]:
        raise InputError(f"node {node.name}: dilated pooling is not supported by the integer engine")
    return {"kernel": k, "strides": list(node.attr("strides", [1, 1])), "pads": list(node.attr("pads", [0, 0, 0, 0]))}


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
