"""Split (constant sizes, or equal parts) on int8 codes: one Slice op per output (TFLite: STRIDED_SLICE each).

Each output is a copy of its part with the shared rescale epilogue, so outputs may carry their own QDQ
scales. The split sizes come from the ``split`` input (opset ≥ 13), the attribute, or ``num_outputs``.
"""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import slice as slice_mod
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Split",), emits=(("Split", "Slice"),))


def sizes(node, dim: int, split) -> list[int]:
    """Part sizes of a Split node along an axis of length ``dim``."""
    outs = len(node.outputs)
    if split is None:
        split = node.attr("split")
    if split is not None:
        split = [int(v) for v in np.asarray(split).reshape(-1)]
        if sum(split) != dim or len(split) != outs:
            raise InputError(f"node {node.name}: Split sizes {split} do not cover the axis of length {dim} in "
                             f"{outs} parts")
        return split
    part = -(-dim // outs)
    return [min(part, dim - i * part) for i in range(outs)]


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    axis = int(node.attr("axis", 0)) % len(x.shape)
    parts = sizes(node, int(x.shape[axis]), b.plain_const(node, 1))
    ops, start = [], 0
    for i, n in enumerate(parts):
        out, lo, hi = b.output(node, index=i)
        r = [[0, int(d), 1] for d in x.shape]
        r[axis] = [start, start + n, 1]
        ops.append(slice_mod.slice_op(b, node, x, out, lo, hi, r, f"{node.name}#{i}"))
        start += n
    b.pending.extend(ops[:-1])
    return ops[-1]
