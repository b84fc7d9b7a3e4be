"""A quantised constant operand (e.g. the constant of Add/Mul): its int8 codes, no batch axis."""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp


# ----- loop + epilogue (params are set by engine.export) --------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    return op.params["value"]
