"""Pad, mode constant, on int8 codes: TFLite's PAD / PADV2 (the value at the input's quantisation), then the
shared rescale epilogue when the QDQ output has other parameters (TFLite: QUANTIZE after).

The pad value is ``fixedpoint.quantize_float(value, s_in, zp_in)`` (ties away from zero; 0 → the input zero
point), the same int8 constant the TFLite export writes. Pads come from the ``pads`` input (or attribute)
and the optional ``axes`` input; negative pads (cropping) are refused.
"""
from __future__ import annotations

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops import rescale
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

DESCRIPTOR = OpDescriptor(("Pad",), ("Pad",))


def pad_widths(node, rank: int, pads, axes) -> list[list[int]]:
    """[[before, after] per axis] of an ONNX Pad node."""
    if pads is None:
        raise InputError(f"node {node.name}: Pad pads are computed at run time; export with static sizes")
    pads = [int(v) for v in np.asarray(pads).reshape(-1)]
    axes = list(range(rank)) if axes is None else [int(a) % rank for a in np.asarray(axes).reshape(-1)]
    if len(pads) != 2 * len(axes) or min(pads, default=0) < 0:
        raise InputError(f"node {node.name}: Pad pads {pads} (for axes {axes}); need two non-negative values per "
                         "axis (cropping is a Slice)")
    out = [[0, 0] for _ in range(rank)]
    for i, a in enumerate(axes):
        out[a] = [pads[i], pads[i + len(axes)]]
    return out


def pad_value(b, node) -> float:
    if len(node.inputs) > 2 and node.inputs[2]:
        name = node.inputs[2]
        if name in b.const_dq:
            c = b.const_dq[name]
            return float(((c.values.astype(np.float64) - c.zero_point) * c.scale).reshape(()))
        v = b.plain_const(node, 2)
        if v is None:
            raise InputError(f"node {node.name}: Pad value {name} is not a constant")
        return float(np.asarray(v).reshape(()))
    return float(node.attr("value", 0.0))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    if node.attr("mode", "constant") != "constant":
        raise InputError(f"node {node.name}: Pad mode {node.attr('mode')}; the integer engine pads with a constant "
                         "only")
    pads = b.plain_const(node, 1) if len(node.inputs) > 1 else node.attr("pads")
    axes = b.plain_const(node, 3) if len(node.inputs) > 3 and node.inputs[3] else None
    widths = pad_widths(node, len(x.shape), pads, axes)
    if widths[0] != [0, 0]:
        b.batchable = False
    code = int(fixedpoint.quantize_float(np.float32(pad_value(b, node)), x.scale, x.zero_point))
    return IntOp(node.name, "Pad", (x.name,), (out.name,), {
        "widths": widths, "value": code, "rescale": rescale.params(x, out), "act_min": lo, "act_max": hi},
        b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def padded(p, x: np.ndarray) -> np.ndarray:
    return np.pad(x, p["widths"], constant_values=np.int8(p["value"]))


def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    return rescale.apply(p["rescale"], padded(p, inputs[0]), p["act_min"], p["act_max"], op.rounding)
