"""MaxPool on int8 codes (TFLite reference MaxPool): max over the window, padding ignored, then clamp."""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.engine.ops.window import pool_attrs, windows
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("MaxPool",), ("MaxPool",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    if len(node.outputs) > 1 and node.outputs[1]:
        raise InputError(f"node {node.name}: MaxPool indices output is not supported by the integer engine")
    return IntOp(node.name, "MaxPool", (x.name,), (out.name,),
                 {**pool_attrs(node, x.shape), "rescale": rescale.params(x, out), "act_min": lo, "act_max": hi},
                 b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    win, _ = windows(inputs[0].astype(np.int16), p, fill=-32768)
    m = win.max(axis=(-1, -2))
    return rescale.apply(p["rescale"], m, p["act_min"], p["act_max"], op.rounding)
