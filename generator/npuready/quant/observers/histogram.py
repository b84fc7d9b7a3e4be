"""A streaming histogram over a fixed range: what the percentile, MSE and entropy observers read."""
from __future__ import annotations

import numpy as np

BINS = 2048


class Histogram:
    """Counts of values in ``BINS`` equal bins over [lo, hi] (values outside are clipped into the end bins)."""

    def __init__(self, lo: float, hi: float, bins: int = BINS):
        if not hi > lo:
            hi = lo + max(1e-8, abs(lo) * 1e-6)
        self.lo, self.hi, self.bins = float(lo), float(hi), bins
        self.counts = np.zeros(bins, np.float64)

    def update(self, x: np.ndarray) -> None:
        # float64: with float32 values numpy computes the bin edges in float32, and a narrow range far from
        # zero (a YOLO head's constant anchor row, e.g. [320.0, 320.00003]) cannot hold 2048 distinct edges.
        v = np.clip(np.ravel(x).astype(np.float64), self.lo, self.hi)
        c, _ = np.histogram(v, bins=self.bins, range=(self.lo, self.hi))
        self.counts += c

    @property
    def edges(self) -> np.ndarray:
        return np.linspace(self.lo, self.hi, self.bins + 1)

    @property
    def centers(self) -> np.ndarray:
        e = self.edges
        return (e[:-1] + e[1:]) / 2
