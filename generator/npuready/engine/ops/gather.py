"""Gather with constant indices on int8 codes (e.g. splitting q, k, v): pure indexing, same quantisation."""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Gather",), ("Gather",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    idx = b.plain_const(node, 1)
    if idx is None:
        raise InputError(f"node {node.name}: Gather indices are computed at run time; the integer engine needs "
                         "constant indices")
    axis = int(node.attr("axis", 0)) % max(len(x.shape), 1)
    if axis == 0:
        b.batchable = False
    return IntOp(node.name, "Gather", (x.name,), (out.name,),
                 {"axis": axis, "indices": np.asarray(idx, np.int64), "rescale": rescale.params(x, out),
                  "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    y = np.ascontiguousarray(np.take(inputs[0], p["indices"], axis=p["axis"]))
    return rescale.apply(p["rescale"], y, p["act_min"], p["act_max"], op.rounding)
