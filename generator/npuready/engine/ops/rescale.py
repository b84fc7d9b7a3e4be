"""Requantisation between two int8 tensors (TFLite REQUANTIZE): out = zp_out + M·(x - zp_in), clamped.

Used on its own for a Relu/Clip that reads a quantised tensor, and by layout/pool ops whose input
and output quantisation differ. ``params(in, out)`` returns None when the two are identical.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp, QTensor
from npuready.engine.ops.descriptor import OpDescriptor

DESCRIPTOR = OpDescriptor(("Relu", "Clip"), ("Rescale",))


def params(src: QTensor, dst: QTensor) -> dict | None:
    if np.float32(src.scale) == np.float32(dst.scale) and src.zero_point == dst.zero_point:
        return None
    m, s = fixedpoint.quantize_multiplier(float(np.float32(src.scale)) / float(np.float32(dst.scale)))
    return {"input_zero_point": src.zero_point, "multiplier": m, "shift": s, "output_zero_point": dst.zero_point}


def apply(p: dict | None, x: np.ndarray, lo: int, hi: int, rounding: str) -> np.ndarray:
    """The epilogue shared by every op that may change quantisation."""
    if p is None:
        return fixedpoint.saturate(x, lo, hi) if (lo, hi) != (-128, 127) else x.astype(np.int8)
    return fixedpoint.requantize(x.astype(np.int64) - p["input_zero_point"], p["multiplier"], p["shift"],
                                 p["output_zero_point"], lo, hi, rounding)


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    """A Relu/Clip that reads a quantised tensor: requantise, then clamp."""
    x = b.act(node, 0)
    out, lo, hi = b.output(node, self_clamp=True)
    return IntOp(node.name, "Rescale", (x.name,), (out.name,),
                 {"rescale": params(x, out), "act_min": lo, "act_max": hi}, b.rounding)


def build_identity(b, node) -> IntOp | None:
    """An Identity whose output is quantised again (onnxruntime puts a QuantizeLinear after a mid-graph
    Identity of Paddle2ONNX): a requantisation when the two quantisations differ; None when nothing is
    computed (the output then names the input's int8 tensor)."""
    if node.outputs[0] not in b.q_of or node.inputs[0] not in b.act_dq:
        return None
    x = b.act(node, 0)
    out = b.tensors[b.q_of[node.outputs[0]].outputs[0]]
    return IntOp(node.name, "Rescale", (x.name,), (out.name,),
                 {"rescale": params(x, out), "act_min": -128, "act_max": 127}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    return apply(op.params["rescale"], inputs[0], op.params["act_min"], op.params["act_max"], op.rounding)
