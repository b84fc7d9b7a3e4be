"""A streaming histogram over a fixed range: what the percentile, MSE and entropy observers read."""
from __future__ import annotations

import numpy as np

BINS = 2048


class Histogram:
    """Counts of values in ``BINS`` equal bins over [lo, hi] (values outside are clipped into the end bins)."""

    def __init__(self, lo: float, hi: float, bins: int = BINS):
        if not hi > lo:
            hi = lo + 1e-8
        self.lo, self.hi, self.bins = float(lo), float(hi), bins
        self.counts = np.zeros(bins, np.float64)

    def update(self, x: np.ndarray) -> None:
        c, _ = np.histogram(np.clip(np.ravel(x), self.lo, self.hi), bins=self.bins, range=(self.lo, self.hi))
        self.counts += c

    @property
    def edges(self) -> np.ndarray:
        return np.linspace(self.lo, self.hi, self.bins + 1)

    @property
    def centers(self) -> np.ndarray:
        e = self.edges
        return (e[:-1] + e[1:]) / 2
