"""regression: signal-to-noise ratio of the quantised outputs against the reference, in dB.

Per output: SNR = 10·log10(Σ ref² / Σ (ref − cand)²) over all images; the value is the lowest SNR of all
outputs (the weakest head decides). Identical outputs have no noise: SNR ``inf``.
"""
from __future__ import annotations

import math

import numpy as np

from npuready.verify.tasks.metric import TaskMetric


def snr_db(reference: np.ndarray, candidate: np.ndarray) -> float:
    ref = np.asarray(reference, np.float64)
    noise = float(((ref - np.asarray(candidate, np.float64).reshape(ref.shape)) ** 2).sum())
    signal = float((ref ** 2).sum())
    if noise == 0:
        return math.inf
    if signal == 0:
        return -math.inf
    return 10 * math.log10(signal / noise)


def _score(reference, candidate, options):
    names = options.get("output_names") or [f"output{i}" for i in range(len(reference))]
    per = {str(n): snr_db(r, c) for n, r, c in zip(names, reference, candidate)}
    worst = min(per.values()) if per else math.inf
    return worst, {"snr_db": {k: (v if math.isfinite(v) else None) for k, v in per.items()},
                   "worst_output": min(per, key=per.get) if per else None}


REGRESSION = TaskMetric(
    "regression", "SNR (worst output)", 20.0, 6.0,
    "signal-to-noise ratio of every output against the reference, 10·log10(Σref²/Σ(ref−cand)²) in dB; "
    "the lowest over the outputs", _score, unit="dB")
