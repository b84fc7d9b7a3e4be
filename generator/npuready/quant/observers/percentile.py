"""Percentile observer: clip the range to the 0.01st and 99.99th percentiles of the calibration values."""
from __future__ import annotations

import numpy as np

from npuready.quant.observers.histogram import Histogram

NEEDS_HISTOGRAM = True
PERCENTILE = 99.99


def observe(lo: float, hi: float, hist: Histogram | None = None, percentile: float = PERCENTILE) -> tuple[float, float]:
    total = hist.counts.sum()
    if total == 0:
        return float(lo), float(hi)
    cdf = np.cumsum(hist.counts) / total
    edges = hist.edges
    tail = 1 - percentile / 100
    i_lo = int(np.searchsorted(cdf, tail, side="left"))
    i_hi = int(np.searchsorted(cdf, 1 - tail, side="left"))
    new_lo = float(edges[i_lo])
    new_hi = float(edges[min(i_hi + 1, len(edges) - 1)])
    return min(new_lo, 0.0), max(new_hi, 0.0)
