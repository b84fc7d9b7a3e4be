"""Exact integer accumulation in BLAS float products: the narrowest float type whose partial sums stay exact.

An int8 × (uint8-range) dot product of length ``k`` has partial sums bounded by k·255·max|w|; below 2^24 every
one is exactly representable in float32, below 2^53 in float64. Conv and Gemm accumulate in that type, so the
result is exact and independent of summation order.
"""
from __future__ import annotations

import numpy as np


def exact_dtype(w: np.ndarray, k: int):
    """float32 when every partial sum stays below 2^24 (then exact), else float64 (exact below 2^53)."""
    bound = k * 255 * int(np.abs(w.astype(np.int64)).max(initial=0))
    return np.float32 if bound < (1 << 24) else np.float64
