"""Per-op constant buffers of the C++ twin's Conv and Gemm, made once per op (``cpp/ops/pairgemm.h``'s layouts).

``weight_pairs`` packs int8 weight rows as int32 pairs (the rows side of the pair product), ``weight_cols`` as
int16 pair columns (the columns side, for Gemm on few input rows); ``prepared`` keeps both with the
contiguous weights and int32 per-channel vectors for as long as the op's weight array lives.
"""
from __future__ import annotations

import weakref

import numpy as np


def weight_pairs(w: np.ndarray) -> np.ndarray:
    """int8 (rows, k) weights as pairgemm.h's int32 pairs (rows, ceil(k / 2)): w[:, 2i] in the low 16 bits,
    w[:, 2i+1] in the high 16 bits."""
    w = np.asarray(w, np.int8).reshape(len(w), -1)
    if w.shape[1] % 2:
        w = np.concatenate([w, np.zeros((len(w), 1), np.int8)], axis=1)
    lo = w[:, 0::2].astype(np.int16).view(np.uint16).astype(np.uint32)
    hi = w[:, 1::2].astype(np.int16).view(np.uint16).astype(np.uint32)
    return np.ascontiguousarray((lo | (hi << 16)).view(np.int32))


def weight_cols(w: np.ndarray, tile_cols: int = 16) -> np.ndarray:
    """int8 (rows, k) weights as pairgemm.h's PairCols of the transposed matrix (k × rows): int16
    (ceil(k / 2), rows rounded up to ``tile_cols``, 2), element (k, r) at [k // 2, r, k % 2], padding 0."""
    w = np.asarray(w, np.int8).reshape(len(w), -1)
    rows, k = w.shape
    out = np.zeros(((k + 1) // 2, -(-rows // tile_cols) * tile_cols, 2), np.int16)
    out[:, :rows, 0] = w[:, 0::2].T
    out[:k // 2, :rows, 1] = w[:, 1::2].T
    return out


_PREPARED: dict[int, tuple[weakref.ref, dict]] = {}


def prepared(p, cols: bool = False) -> dict:
    """Per-op constant buffers of Conv and Gemm (contiguous weights, packed pairs, int32 per-channel vectors),
    made on the op's first call and kept as long as its weight array lives (arrays are not hashable: keyed
    by identity, dropped by a finalizer). ``cols``: also the weights as columns (Gemm always; a Conv with
    few output pixels, on first need)."""
    w = p["weight"]
    ref, got = _PREPARED.get(id(w), (None, None))
    if ref is None or ref() is not w:
        o = len(w)
        got = {"weight": np.ascontiguousarray(w, np.int8), "pairs": weight_pairs(w),
               "cols": weight_cols(w) if w.ndim == 2 else None,
               **{k: np.ascontiguousarray(np.broadcast_to(np.asarray(p[k], np.int32), (o,)))
                  for k in ("bias", "multiplier", "shift")}}
        _PREPARED[id(w)] = (weakref.ref(w), got)
        weakref.finalize(w, _PREPARED.pop, id(w), None)
    if cols and got["cols"] is None:
        got["cols"] = weight_cols(w)
    return got
