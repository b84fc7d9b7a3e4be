"""classification: top-1 agreement — the argmax of the first output, per image (the gate's original measure)."""
from __future__ import annotations

import numpy as np

from npuready.verify.tasks.metric import TaskMetric


def top1(outputs) -> np.ndarray:
    """Top-1 of the first output, flattened per image (exactly what the ladder's ``agreement`` uses)."""
    first = outputs[0]
    return first.reshape(len(first), -1).argmax(1)


def _score(reference, candidate, options):
    a, b = top1(reference), top1(candidate)
    same = a == b
    return float(same.mean()) if len(same) else 1.0, {"images": int(len(same)), "flips": int((~same).sum())}


CLASSIFICATION = TaskMetric(
    "classification", "top-1 agreement", 0.99, 0.9,
    "top-1 agreement: the argmax of the first output is the same class as the reference's, per image",
    _score)
