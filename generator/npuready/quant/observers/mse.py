"""MSE observer: the clipping range that minimises the expected squared int8 quantisation error.

Candidates shrink the min-max range by a factor in [0.3, 1]; the error of each is evaluated on the
calibration histogram (bin centres weighted by counts) with 256 asymmetric levels.
"""
from __future__ import annotations

import numpy as np

from npuready.quant.observers.histogram import Histogram

NEEDS_HISTOGRAM = True
LEVELS = 256
FACTORS = np.linspace(0.3, 1.0, 71)


def quant_error(centers: np.ndarray, counts: np.ndarray, lo: float, hi: float) -> float:
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = (hi - lo) / (LEVELS - 1) or 1e-12
    zp = np.round(-lo / scale)
    q = np.clip(np.round(centers / scale) + zp, 0, LEVELS - 1)
    return float((((q - zp) * scale - centers) ** 2 * counts).sum())


def observe(lo: float, hi: float, hist: Histogram | None = None) -> tuple[float, float]:
    centers, counts = hist.centers, hist.counts
    best = min(FACTORS, key=lambda f: quant_error(centers, counts, lo * f, hi * f))
    return float(lo * best), float(hi * best)
