"""Selections moved out of the graph: ArgMax, TopK, ReduceMax (ONNX semantics)."""
from __future__ import annotations

import numpy as np


def argmax(x: np.ndarray, axis: int = 0, keepdims: bool = True, select_last_index: bool = False) -> np.ndarray:
    """ONNX ArgMax: int64 indices of the maximum along ``axis`` (first occurrence unless select_last_index)."""
    x = np.asarray(x)
    if select_last_index:
        flipped = np.flip(x, axis=axis)
        idx = x.shape[axis] - 1 - np.argmax(flipped, axis=axis)
    else:
        idx = np.argmax(x, axis=axis)
    idx = idx.astype(np.int64)
    return np.expand_dims(idx, axis) if keepdims else idx


def reduce_max(x: np.ndarray, axes: "tuple[int, ...] | int | None" = None, keepdims: bool = True) -> np.ndarray:
    """ONNX ReduceMax over ``axes`` (all axes when None)."""
    return np.max(np.asarray(x), axis=axes if axes is None or isinstance(axes, int) else tuple(axes), keepdims=keepdims)


def topk(x: np.ndarray, k: int, axis: int = -1, largest: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """ONNX TopK (sorted=1): values and int64 indices; equal values keep the lower index first."""
    x = np.asarray(x)
    key = -x if largest else x
    idx = np.argsort(key, axis=axis, kind="stable")
    idx = np.take(idx, np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx.astype(np.int64)
