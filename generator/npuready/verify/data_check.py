"""Data sanity, part of the gate: a verdict on data that cannot support it is refused (exit 2), never a pass.

- evaluation data: at least one image, every value finite; labels (when given) one per image and each an
  integer class index the model can output (0 … classes-1), so accuracy is computable;
- calibration data: every value finite and not all the same value (a constant set calibrates every
  activation range to a single point).

Each refusal is one ``InputError`` line naming the file (or the image inside it), what is wrong and what
to do.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from npuready.errors import InputError


def output_classes(float_model) -> int | None:
    """Number of classes of a classifier: the last dimension of its first output, when static."""
    out = float_model.graph.output[0].type.tensor_type.shape.dim
    return int(out[-1].dim_value) if out and out[-1].dim_value > 0 else None


def _where(source: str, names: Sequence[str] | None, i: int) -> str:
    return f"{source}: {names[i]}" if names is not None else f"{source}: image {i}"


def check_finite(x: np.ndarray, source: str, names: Sequence[str] | None = None) -> None:
    bad = ~np.isfinite(np.asarray(x, dtype=np.float64).reshape(len(x), -1)).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{_where(source, names, i)} holds NaN or infinite values ({int(bad.sum())} of {len(x)} "
                         "inputs do); fix or drop them")


def check_evaluation(x: np.ndarray, labels, classes: int | None, source: str,
                     names: Sequence[str] | None = None) -> None:
    """Refuse evaluation data the gate cannot score: no images, non-finite values, labels that do not
    match the images in count or lie outside the model's class range."""
    if len(x) == 0:
        raise InputError(f"{source}: no images; the gate needs at least one")
    check_finite(x, source, names)
    if labels is None:
        return
    y = np.asarray(labels)
    if len(y) != len(x):
        raise InputError(f"{source}: {len(y)} labels for {len(x)} images; give exactly one label per image")
    if not np.issubdtype(y.dtype, np.integer):
        raise InputError(f"{source}: labels of type {y.dtype} are not integer class indices")
    hi = classes if classes is not None else None
    bad = (y < 0) | ((y >= hi) if hi is not None else False)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        limit = f"0…{hi - 1} (the model has {hi} outputs)" if hi is not None else "≥ 0"
        raise InputError(f"{_where(source, names, i)}: label {int(y[i])} is outside the class range {limit}; "
                         "fix the labels or use the model they belong to")


def check_calibration(x: np.ndarray, source: str, names: Sequence[str] | None = None) -> None:
    """Refuse calibration inputs that are non-finite or all one value."""
    if len(x) == 0:
        raise InputError(f"{source}: no calibration inputs")
    check_finite(x, source, names)
    lo, hi = float(np.min(x)), float(np.max(x))
    if lo == hi:
        raise InputError(f"{source}: every calibration value is {lo:g} over {len(x)} inputs; a constant set "
                         "calibrates every activation range to one point — use real inputs")
