"""Concat of int8 tensors: each input rescaled to the output quantisation (integer multiplier), then joined."""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Concat",), ("Concat",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    xs = [b.act(node, i) for i in range(len(node.inputs))]
    out, lo, hi = b.output(node)
    axis = int(node.attr("axis")) % len(out.shape)
    if axis == 0:
        raise InputError(f"node {node.name}: Concat along the batch axis is not supported by the integer engine")
    return IntOp(node.name, "Concat", tuple(x.name for x in xs), (out.name,),
                 {"axis": axis, "rescales": [rescale.params(x, out) for x in xs], "act_min": lo, "act_max": hi},
                 b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    parts = [rescale.apply(r, x, p["act_min"], p["act_max"], op.rounding) for r, x in zip(p["rescales"], inputs)]
    return np.concatenate(parts, axis=p["axis"])
