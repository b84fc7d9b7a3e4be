"""Element-wise activations moved out of the graph (ONNX Sigmoid / Softmax / Relu semantics)."""
from __future__ import annotations

import numpy as np


def sigmoid(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)), computed without overflow for large |x|; keeps float32 input float32."""
    x = np.asarray(x)
    dtype = x.dtype if np.issubdtype(x.dtype, np.floating) else np.float32
    x = x.astype(dtype, copy=False)
    out = np.empty_like(x)
    pos = x >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
    e = np.exp(x[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """ONNX Softmax (opset 13+): exp(x - max) / sum along ``axis``."""
    x = np.asarray(x)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def relu(x: np.ndarray) -> np.ndarray:
    """max(x, 0)."""
    x = np.asarray(x)
    return np.maximum(x, np.zeros((), x.dtype))
