"""Byte counts for people, stated with what they count: ``172,032 elements × int8 = 168.0 KiB``.

partition states crossings in the dtype of the ONNX graph (a float export moves float32); cost states
them as the NPU build moves them (int8 activations). Both say which, with the element count, so the
two figures for one model can be compared: the same elements, a different element size.
"""
from __future__ import annotations

NPU_DTYPE = "int8"  # activations of the NPU build that cost models


def human(n: int | None) -> str:
    """``n`` bytes as B, KiB or MiB (one decimal); ``? B`` when unknown."""
    if n is None:
        return "? B"
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def counted(elements: int | None, dtype: str | None, nbytes: int | None) -> str:
    """``E elements × DTYPE = SIZE`` (the size alone when the element count is unknown)."""
    if elements is None:
        return human(nbytes)
    return f"{elements:,} elements × {dtype or '?'} = {human(nbytes)}"
