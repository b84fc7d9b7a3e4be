"""``canonicalise(model)``: the model as every stage reads it, and a record of each rewrite.

The passes run in this order (an explicit registry): dims first (the version converter and shape inference
need readable dims), then the opset upgrade (so later passes see opset ≥ 13 forms), then Identity/Dropout
removal (a BatchNormalization behind an Identity then folds), slopes, BatchNormalization. The user's
model is never modified: the passes work on a copy.
"""
from __future__ import annotations

from typing import Callable

import onnx

from npuready.importer import batchnorm, dims, opset, passthrough, slopes
from npuready.importer.record import Imported, Rewrite

Pass = Callable[[onnx.ModelProto], "tuple[onnx.ModelProto, list[Rewrite]]"]

PASSES: dict[str, Pass] = {
    "dims": dims.rewrite,
    "opset": opset.rewrite,
    "passthrough": passthrough.rewrite,
    "slopes": slopes.rewrite,
    "batchnorm": batchnorm.rewrite,
}


def canonicalise(model: onnx.ModelProto) -> tuple[onnx.ModelProto, Imported]:
    """A canonical copy of ``model`` and what was rewritten; ``model`` itself is left as it is.

    A QDQ model (QuantizeLinear/DequantizeLinear present) is left as written: rewriting a quantised graph
    would put float ops between its quantisers (it is the quantizer's output, canonical already)."""
    before = opset.default_opset(model)
    if any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in model.graph.node):
        return model, Imported((), before, before)
    work = onnx.ModelProto()
    work.CopyFrom(model)
    rewrites: list[Rewrite] = []
    for run in PASSES.values():
        work, done = run(work)
        rewrites.extend(done)
    if not rewrites:
        return model, Imported((), before, before)
    return work, Imported(tuple(rewrites), before, opset.default_opset(work))
