"""Slice (constant starts/ends/axes, positive steps) on int8 codes, like TFLite's STRIDED_SLICE: a copy,
then the shared rescale epilogue when the QDQ output has other parameters (TFLite: QUANTIZE after).

``ranges`` normalises ONNX's starts/ends (negative values count from the end, then clamped to the
axis) into one (begin, end, step) per axis; ``Split`` reuses it, one slice per output.
"""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Slice",), ("Slice",))


def ranges(shape, starts, ends, axes, steps, name: str) -> list[list[int]]:
    """[[begin, end, step] per axis] of an ONNX Slice on a tensor of ``shape``."""
    rank = len(shape)
    out = [[0, int(d), 1] for d in shape]
    for s, e, a, st in zip(starts, ends, axes, steps):
        a, st = int(a) % rank, int(st)
        if st <= 0:
            raise InputError(f"node {name}: Slice step {st}; the integer engine slices with positive steps only")
        d = int(shape[a])
        s, e = int(max(min(int(s), 2 ** 62), -2 ** 62)), int(max(min(int(e), 2 ** 62), -2 ** 62))
        s = min(max(s + d if s < 0 else s, 0), d)
        e = min(max(e + d if e < 0 else e, 0), d)
        out[a] = [s, e, st]
    return out


def slice_op(b, node, x, out, lo, hi, r: list[list[int]], name: str) -> IntOp:
    keep_batch = int(x.shape[0]) == 1 and r[0] == [0, 1, 1]  # axis 0 is the batch and is not sliced
    if not keep_batch:
        b.batchable = False  # indexes axis 0: run image by image
    return IntOp(name, "Slice", (x.name,), (out.name,), {"ranges": r, "keep_batch": keep_batch,
                 "rescale": rescale.params(x, out), "act_min": lo, "act_max": hi}, b.rounding)


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    consts = [b.plain_const(node, i) for i in range(1, 5)]
    if consts[0] is None or consts[1] is None:
        raise InputError(f"node {node.name}: Slice starts/ends are computed at run time; the integer engine needs "
                         "constants (export with static input sizes)")
    starts, ends = (np.asarray(c).reshape(-1) for c in consts[:2])
    axes = range(len(starts)) if consts[2] is None else np.asarray(consts[2]).reshape(-1)
    steps = [1] * len(starts) if consts[3] is None else np.asarray(consts[3]).reshape(-1)
    return slice_op(b, node, x, out, lo, hi, ranges(x.shape, starts, ends, axes, steps, node.name), node.name)


# ----- loop + epilogue ----------------------------------------------------------------------
def take(p, x: np.ndarray) -> np.ndarray:
    """The slice of ``x`` (axis 0 follows the batch actually run when it is the batch and not sliced)."""
    idx = tuple(slice(None) if i == 0 and p["keep_batch"] else slice(*r) for i, r in enumerate(p["ranges"]))
    return np.ascontiguousarray(x[idx])


def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    return rescale.apply(p["rescale"], take(p, inputs[0]), p["act_min"], p["act_max"], op.rounding)
