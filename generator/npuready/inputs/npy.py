"""``.npy`` arrays: the header is read and checked against the budget before the data is allocated."""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import IO

import numpy as np

from npuready.errors import InputError
from npuready.inputs import budget
from npuready.inputs.files import regular_file


def header(f: IO[bytes], label: str) -> tuple[tuple[int, ...], np.dtype]:
    """(shape, dtype) from an open .npy stream positioned at its start; the stream ends after the header."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = fmt.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, _, dtype = fmt.read_array_header_2_0(f)
        else:
            raise InputError(f"{label}: .npy format version {version[0]}.{version[1]} is not supported (1.0 or 2.0)")
    except InputError:
        raise
    except (ValueError, EOFError, SyntaxError, TypeError, OSError) as exc:
        raise InputError(f"{label}: not a .npy array ({_short(exc)})") from None
    return tuple(int(d) for d in shape), np.dtype(dtype)


def check_header(shape: tuple[int, ...], dtype: np.dtype, label: str, *, available: int | None = None,
                 budget_bytes: int = budget.MAX_ARRAY_BYTES) -> None:
    """Refuse what is not a real numeric array or does not fit the budget (or the bytes actually present)."""
    if dtype.hasobject or dtype.fields is not None:
        raise InputError(f"{label}: dtype {dtype} holds Python objects or records; give a numeric array")
    if dtype.kind == "c":
        raise InputError(f"{label}: dtype {dtype} is complex; model inputs are real numbers")
    if dtype.kind not in "biuf":
        raise InputError(f"{label}: dtype {dtype} is not numeric; give float32 (or an integer type)")
    n = math.prod(shape)
    if n > budget.MAX_ARRAY_ELEMENTS or n * dtype.itemsize > budget_bytes:
        raise InputError(f"{label}: header declares shape {list(shape)} {dtype} = {n * dtype.itemsize:,} bytes, "
                         f"above the {budget_bytes:,}-byte budget for one array")
    if available is not None and n * dtype.itemsize > available:
        raise InputError(f"{label}: header declares {n * dtype.itemsize:,} bytes of data but the file holds "
                         f"{available:,}; the file is truncated")


def check_values(x: np.ndarray, label: str, *, finite: bool = True, nonempty: bool = True) -> np.ndarray:
    if nonempty and x.size == 0:
        raise InputError(f"{label}: empty array (shape {list(x.shape)})")
    if finite and x.dtype.kind == "f" and not np.isfinite(x).all():
        bad = int(np.flatnonzero(~np.isfinite(x.reshape(-1)))[0])
        raise InputError(f"{label}: contains NaN or infinity (first at flat index {bad}); inputs must be finite")
    return x


def read_npy(path: "str | os.PathLike", label: str | None = None, *, inside: Path | None = None,
             finite: bool = True, budget_bytes: int = budget.MAX_ARRAY_BYTES) -> np.ndarray:
    """A validated array from a regular ``.npy`` file (never unpickled, never larger than the budget)."""
    label = label or str(path)
    p = regular_file(path, label, inside=inside, what=".npy file")
    size = p.stat().st_size
    if size == 0:
        raise InputError(f"{label}: empty file (0 bytes), not a .npy array")
    with open(p, "rb") as f:
        shape, dtype = header(f, label)
        check_header(shape, dtype, label, available=size - f.tell(), budget_bytes=budget_bytes)
        f.seek(0)
        try:
            x = np.load(f, allow_pickle=False)
        except (ValueError, EOFError, OSError) as exc:
            raise InputError(f"{label}: not a readable .npy array ({_short(exc)})") from None
    return check_values(x, label, finite=finite)


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:160] + ("…" if len(text) > 160 else "")
