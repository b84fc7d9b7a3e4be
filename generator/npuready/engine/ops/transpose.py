"""Transpose on int8 codes (a perm that moves axis 0 makes the graph run image by image)."""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor

DESCRIPTOR = OpDescriptor(("Transpose",), ("Transpose",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    perm = list(node.attr("perm", list(range(len(x.shape)))[::-1]))
    if perm and perm[0] != 0:
        b.batchable = False  # the batch axis moves: run image by image
    return IntOp(node.name, "Transpose", (x.name,), (out.name,),
                 {"perm": perm, "rescale": rescale.params(x, out), "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    y = np.ascontiguousarray(inputs[0].transpose(p["perm"]))
    return rescale.apply(p["rescale"], y, p["act_min"], p["act_max"], op.rounding)
