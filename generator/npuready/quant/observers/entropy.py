"""Entropy (KL) observer: TensorRT-style threshold minimising KL(P || Q) on the |x| histogram.

P is the histogram truncated at a candidate threshold (outliers folded into the last bin); Q is P
merged into the int8 levels and expanded back. The range is the data range clipped to ±threshold.
"""
from __future__ import annotations

import numpy as np

from npuready.quant.observers.histogram import Histogram

NEEDS_HISTOGRAM = True
ABS_BINS = 1024


def _kl(p: np.ndarray, q: np.ndarray) -> float:
    p = p / p.sum()
    q = q / q.sum()
    mask = p > 0
    return float(np.sum(p[mask] * np.log(p[mask] / np.maximum(q[mask], 1e-12))))


def threshold(abs_counts: np.ndarray, bin_width: float, levels: int) -> float:
    n = len(abs_counts)
    best, best_i = np.inf, n
    for i in range(levels, n + 1, 8):
        p = abs_counts[:i].astype(np.float64).copy()
        p[-1] += abs_counts[i:].sum()
        if p.sum() == 0:
            continue
        chunks = np.array_split(np.arange(i), levels)
        q = np.zeros(i)
        for idx in chunks:
            nz = abs_counts[idx] > 0
            if nz.any():
                q[idx[nz]] = abs_counts[idx].sum() / nz.sum()
        kl = _kl(p, q)
        if kl < best:
            best, best_i = kl, i
    return best_i * bin_width


def observe(lo: float, hi: float, hist: Histogram | None = None) -> tuple[float, float]:
    amax = max(abs(lo), abs(hi))
    if amax == 0 or hist.counts.sum() == 0:
        return float(lo), float(hi)
    c = hist.centers
    abs_counts, _ = np.histogram(np.abs(c), bins=ABS_BINS, range=(0, amax), weights=hist.counts)
    levels = 128 if lo < 0 else 256
    t = threshold(abs_counts, amax / ABS_BINS, levels)
    return float(max(lo, -t)), float(min(hi, t))
