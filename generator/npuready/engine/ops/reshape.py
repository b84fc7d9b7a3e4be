"""Reshape / Flatten / Squeeze / Unsqueeze on int8 codes: a view change plus the shared rescale epilogue.

The target shape is the ONNX static output shape with its leading (batch) dimension replaced by the
batch actually run, so one graph exported at batch 1 runs N images at once. A reshape that does not
keep axis 0 marks the graph image-by-image (``IntGraph.batchable``).
"""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Reshape", "Flatten", "Squeeze", "Unsqueeze"), ("Reshape",))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    shape = b.graph.info(node.outputs[0]).shape
    if shape is None or not all(isinstance(d, int) for d in shape):
        raise InputError(f"node {node.name}: {node.op_type} output shape is not static; run shape inference "
                         "with fixed input sizes")
    if not shape or not x.shape or shape[0] != x.shape[0]:
        b.batchable = False  # axis 0 is no longer the batch: run image by image
    return IntOp(node.name, "Reshape", (x.name,), (out.name,),
                 {"shape": [int(d) for d in shape[1:]], "full_shape": [int(d) for d in shape],
                  "rescale": rescale.params(x, out),
                  "act_min": lo, "act_max": hi}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    x = inputs[0]
    # One image (or a reshape that merges the batch into another axis, e.g. the version converter's
    # Flatten → Softmax → Reshape around a rank-4 softmax, run image by image): the static shape itself.
    whole = x.size == int(np.prod(p["full_shape"]))
    y = x.reshape(p["full_shape"]) if whole else x.reshape(x.shape[0], *p["shape"])
    return rescale.apply(p["rescale"], y, p["act_min"], p["act_max"], op.rounding)
