"""The float tail of a detector whose last Concat mixes box coordinates and class scores.

YOLOv8 (nudenet) ends in ``Concat(boxes in pixels 0–320, sigmoid scores 0–1)`` and YOLOX (ddddocr) in
``Concat(raw box offsets, sigmoid objectness and class scores)``: one int8 scale over both leaves the scores a
few codes wide (nudenet: 320 / 255 ≈ 1.25 per code, every score rounds to 0 or 1.25), so no box survives the
post-processing threshold. The fix keeps that tail in float (``quant.keep_float``): the nodes from the last
weighted layers (the head convolutions) down to the tail node run as one float island on the CPU, as a
deployment would run the decode. ``tail_layers`` lists the quantised layers of that tail by name, from the
float graph alone (so ``quantize --keep-float`` can be handed the same names a user would type).
"""
from __future__ import annotations

import onnx

from ..errors import InputError

_WEIGHTED = {"Conv", "ConvTranspose", "Gemm", "MatMul"}
# the ops whose constant input ``quantize`` quantises (a layer of ``quant.keep_float.quantised_layers``);
# shape arithmetic (Gather, Range, Concat of a shape) carries constants too but is never quantised
_LAYERS = _WEIGHTED | {"Add", "Sub", "Mul", "Div", "PRelu"}


def tail_layers(model: onnx.ModelProto, tail: str) -> list[str]:
    """The nodes of ``model`` (constants folded, as ``quantize`` sees it) from ``tail`` back to the weighted
    layers feeding it (included) that carry a constant input: the layers ``--keep-float`` takes."""
    from ..quant.prepare import fold_constants

    g = fold_constants(model).graph
    consts = {i.name for i in g.initializer} | {o for n in g.node if n.op_type == "Constant" for o in n.output}
    producer = {o: n for n in g.node for o in n.output}
    start = next((n for n in g.node if n.name == tail), None)
    if start is None:
        raise InputError(f"float tail {tail!r}: no node of that name in the model")
    seen, pending, found = set(), [start], set()
    while pending:
        n = pending.pop()
        if n.name in seen:
            continue
        seen.add(n.name)
        if n.op_type in _LAYERS and any(i in consts for i in n.input if i):
            found.add(n.name)
        if n.op_type in _WEIGHTED and any(i in consts for i in n.input[1:]):
            continue  # the head's last convolution: the island starts at its input
        pending += [producer[i] for i in n.input if i in producer]
    return [n.name for n in g.node if n.name in found]
