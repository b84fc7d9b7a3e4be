"""Persistent cache of encoded weight-stream sizes: a repeated ``npuready cost`` of the same weights on an Ethos-U
mirror reads each layer's size instead of encoding it again.

Key: SHA-256 (hardware-accelerated where the CPU has SHA extensions) of the codec's version, the layer's
weights as given (bytes, dtype and shape: LiteRT's int8 values follow from them) and everything that sets their order
(OFM block depth, traversal, micro-block depth, dilation). One small text file per key under
``$NPUREADY_CACHE/weight-sizes/`` (default ``~/.cache/npuready``), written atomically without fsync: a reader sees a
whole entry or none, a crash may lose entries, and an unreadable entry counts as a miss.
``NPUREADY_WEIGHT_SIZE_CACHE=0`` turns it off.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from npuready.atomic import write_text

CODEC_VERSION = "ethos-u-vela-5.2.0/1"  # bump when a change to weight_stream or the codec could alter a size


def enabled() -> bool:
    return os.environ.get("NPUREADY_WEIGHT_SIZE_CACHE", "1") != "0"


def cache_dir() -> Path:
    return Path(os.environ.get("NPUREADY_CACHE", Path.home() / ".cache" / "npuready")) / "weight-sizes"


def key(weights: np.ndarray, order: tuple) -> str:
    """The entry name of ``weights`` (any dtype) read in ``order`` (a tuple of ints and strings)."""
    w = np.ascontiguousarray(weights)
    h = hashlib.sha256()
    h.update(repr((CODEC_VERSION, w.dtype.str, w.shape, order)).encode())
    h.update(memoryview(w).cast("B"))
    return h.hexdigest()


def _path(k: str) -> Path:
    return cache_dir() / f"{k}.txt"  # one flat folder: a cold run creates one directory, not one per entry


def get(k: str) -> int | None:
    if not enabled():
        return None
    try:
        return int(_path(k).read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None


def put(k: str, size: int) -> None:
    if enabled():
        try:
            write_text(_path(k), f"{int(size)}\n", durable=False)
        except OSError:
            pass  # a read-only or full cache folder costs speed, not results
