"""The graph input: float → int8 codes (TFLite QUANTIZE: round half away from zero; ONNX: half to even)."""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import OpDescriptor

DESCRIPTOR = OpDescriptor((), ("Quantize",))


# ----- loop + epilogue (params are set by engine.export) --------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    if inputs[0].dtype == np.int8:  # already codes
        return inputs[0]
    return fixedpoint.quantize_float(inputs[0], p["scale"], p["zero_point"], mode=p["mode"])
