"""Activation-range observers (explicit registry). Each module: ``NEEDS_HISTOGRAM`` and
``observe(lo, hi, hist) -> (range_lo, range_hi)`` given the calibration min/max and histogram."""
from __future__ import annotations

from npuready.quant.observers import entropy, minmax, mse, percentile

OBSERVERS = {"minmax": minmax, "percentile": percentile, "mse": mse, "entropy": entropy}
