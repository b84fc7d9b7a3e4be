"""Min-max observer: the range is the smallest and largest value seen in calibration."""
from __future__ import annotations

from npuready.quant.observers.histogram import Histogram

NEEDS_HISTOGRAM = False


def observe(lo: float, hi: float, hist: Histogram | None = None) -> tuple[float, float]:
    return float(lo), float(hi)
