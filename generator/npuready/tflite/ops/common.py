"""Helpers shared by the op converters: activation fusion, padding, output shapes."""
from __future__ import annotations

import math

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import Context, Value

ACT = fb.ActivationFunctionType


def tfl_shape(ctx: Context, name: str, perm) -> list[int]:
    s = ctx.shape(name)
    return [s[a] for a in perm]


def perm_without(perm, axes) -> tuple[int, ...]:
    """The stored axis order after the ONNX ``axes`` are removed (remaining axes renumbered)."""
    remaining = [a for a in perm if a not in axes]
    rank_of = {a: i for i, a in enumerate(sorted(remaining))}
    return tuple(rank_of[a] for a in remaining)


def clip_bounds(ctx: Context, node: Node) -> tuple[float, float]:
    lo, hi = node.attr("min", -np.inf), node.attr("max", np.inf)
    if len(node.inputs) > 1 and node.inputs[1]:
        v = ctx.const(node.inputs[1])
        if v is None:
            raise InputError(f"node {node.name!r} (Clip): min must be a constant")
        lo = float(v)
    if len(node.inputs) > 2 and node.inputs[2]:
        v = ctx.const(node.inputs[2])
        if v is None:
            raise InputError(f"node {node.name!r} (Clip): max must be a constant")
        hi = float(v)
    return float(lo), float(hi)


def activation_code(ctx: Context, node: Node) -> int | None:
    """The TFLite fused activation equal to ``node`` (Relu, Clip(0,6), Clip(0,inf), Clip(-1,1))."""
    if node.op_type == "Relu":
        return ACT.RELU
    if node.op_type == "Clip":
        bounds = clip_bounds(ctx, node)
        return {(0.0, 6.0): ACT.RELU6, (0.0, math.inf): ACT.RELU, (-1.0, 1.0): ACT.RELU_N1_TO_1}.get(bounds)
    return None


def fuse_activation(ctx: Context, out: str) -> tuple[int, str]:
    """(fused activation code, ONNX tensor the op writes) — folds a following Relu/Clip when allowed.

    In int8 mode the activation is folded only when its input and output share scale and zero
    point (then clamping inside the op gives the same integers as a separate RELU op).
    """
    user = ctx.single_consumer(out)
    if user is None or user.inputs[0] != out:
        return ACT.NONE, out
    code = activation_code(ctx, user)
    if code is None:
        return ACT.NONE, out
    if ctx.int8 and not ctx.qparams(out).same_as(ctx.qparams(user.outputs[0])):
        return ACT.NONE, out
    ctx.consumed.add(user.name)
    ctx.fused[out] = user.outputs[0]
    return code, user.outputs[0]


def same_pads(size: int, k: int, s: int, d: int) -> tuple[int, int]:
    """TensorFlow SAME padding (before, after) for one spatial axis."""
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def spatial_padding(ctx: Context, node: Node, hw, kernel, strides, dilations) -> tuple[int, list[int] | None]:
    """(TFLite padding, explicit [top, left, bottom, right] or None) matching the ONNX node."""
    auto = node.attr("auto_pad", "NOTSET")
    if auto == "SAME_UPPER":
        return fb.Padding.SAME, None
    if auto == "SAME_LOWER":  # TF SAME's larger half goes after; SAME_LOWER puts it before
        pads = [same_pads(*a) for a in zip(hw, kernel, strides, dilations)]
        explicit = [pads[0][1], pads[1][1], pads[0][0], pads[1][0]]
    elif auto == "VALID":
        return fb.Padding.VALID, None
    else:
        explicit = [int(p) for p in node.attr("pads", [0, 0, 0, 0])]
    if len(explicit) != 4:
        raise InputError(f"node {node.name!r} ({node.op_type}): pads {explicit}; only 2-D spatial ops are exported")
    if not any(explicit):
        return fb.Padding.VALID, None
    same = [same_pads(size, k, s, d) for size, k, s, d in zip(hw, kernel, strides, dilations)]
    if explicit == [same[0][0], same[1][0], same[0][1], same[1][1]]:
        return fb.Padding.SAME, None
    return fb.Padding.VALID, explicit


def pad_input(ctx: Context, x: Value, name: str, explicit: list[int], fill: str) -> int:
    """Insert PAD (zeros / zero point) or PADV2 (lowest value, for max pooling) before a VALID op."""
    t, l, b, r = explicit
    n, h, w, c = (x.shape[a] for a in x.perm)
    shape = [n, h + t + b, w + l + r, c]
    qp = ctx.tensor_qparams(x.index)
    out = ctx.tmp(f"{name}#pad", shape, qp)
    pads = ctx.int_const(f"{name}#pads", [[0, 0], [t, b], [l, r], [0, 0]])
    if fill == "zero":
        ctx.op("PAD", [x.index, pads], [out], fb.PadOptionsT())
    else:
        if ctx.int8:
            low = ctx.b.tensor(f"{name}#padval", [], "int8", data=np.array(-128, np.int8), qparams=qp)
        else:
            low = ctx.b.tensor(f"{name}#padval", [], "float32", data=np.array(np.finfo(np.float32).min, np.float32))
        ctx.op("PADV2", [x.index, pads, low], [out], fb.PadV2OptionsT())
    return out
