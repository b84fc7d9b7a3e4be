"""Calibration inputs exactly as ``npuready quantize`` reads them, plus a held-out set from the same source.

The held-out images are what the sensitivity table and ``--keep-float auto`` score on: images of the source
that are not in the calibration set (compared by content), up to ``holdout`` of them.
"""
from __future__ import annotations

from dataclasses import dataclass
import hashlib

import numpy as np

from npuready.errors import InputError


@dataclass(frozen=True)
class CalibrationSplit:
    calibration: np.ndarray
    holdout: np.ndarray
    source: str


def _key(a: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()


def split_inputs(source: str, images: int, holdout: int, shape, spec=None) -> CalibrationSplit:
    from npuready.quant.inputs import load_inputs
    from npuready.verify.data_check import check_calibration

    if images < 1 or holdout < 1:
        raise InputError(f"--images {images} / --holdout {holdout}: both must be at least 1")
    calib = load_inputs(source, images, shape, spec=spec)
    check_calibration(calib.x, source)
    seen = {_key(a) for a in calib.x}
    pool = load_inputs(source, images + holdout, shape, seed=1, spec=spec)
    rest = [a for a in pool.x if _key(a) not in seen][:holdout]
    if not rest:
        raise InputError(f"--calib {source}: all {len(pool.x)} of its inputs are calibration images; give a "
                         f"source with more than --images {images} inputs (the held-out set scores the layers)")
    return CalibrationSplit(calib.x, np.stack(rest).astype(np.float32), calib.source)
