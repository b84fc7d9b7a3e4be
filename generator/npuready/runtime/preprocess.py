"""Pre-processing moved out of the graph into the CPU head: uint8 scaling, normalisation, layout."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def to_float(x: np.ndarray, scale: float = 1.0 / 255.0) -> np.ndarray:
    """uint8 image → float32 multiplied by ``scale`` (Cast + Div(255) / Mul(1/255) in a graph head)."""
    return np.asarray(x).astype(np.float32) * np.float32(scale)


def normalize(x: np.ndarray, mean: Sequence[float], std: Sequence[float], channel_axis: int = -1) -> np.ndarray:
    """(x - mean) / std per channel (Sub + Div in a graph head); ``channel_axis`` -1 for NHWC, 1 for NCHW."""
    x = np.asarray(x, dtype=np.float32)
    shape = [1] * x.ndim
    shape[channel_axis] = -1
    m = np.asarray(mean, np.float32).reshape(shape)
    s = np.asarray(std, np.float32).reshape(shape)
    return (x - m) / s


def nhwc_to_nchw(x: np.ndarray) -> np.ndarray:
    """Transpose(perm=[0,3,1,2]), contiguous."""
    return np.ascontiguousarray(np.transpose(np.asarray(x), (0, 3, 1, 2)))
