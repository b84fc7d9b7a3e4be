"""GlobalAveragePool / ReduceMean on int8 codes (TFLite int8 MEAN, integer QuantizedMeanOrSum).

acc = sum(x) - zp_in·count over the reduced axes; out = MultiplyByQuantizedMultiplier(acc, M0', shift')
+ zp_out, clamped, where (M0', shift') folds 1/count into the s_in/s_out multiplier
(``fixedpoint.mean_multiplier``; checked bit-exact against LiteRT BUILTIN_REF). Any axes but the batch.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import HOST_ONLY, CppKernel, OpDescriptor, as_params
from npuready.errors import InputError


@dataclass(frozen=True)
class Params:
    """Mean's integer parameters (``IntOp.params``); the ints, in this order, are ``npr_mean``'s arguments after
    (x with the reduced axes last, planes)."""

    input_zero_point: int
    output_zero_point: int
    multiplier: int  # s_in / s_out with 1/count folded in (fixedpoint.mean_multiplier)
    shift: int
    axes: list  # the reduced axes (sorted, never the batch)
    count: int  # elements reduced per output
    keepdims: int = field(metadata=HOST_ONLY)  # 0/1: the output's shape, arranged in Python
    act_min: int
    act_max: int


DESCRIPTOR = OpDescriptor(("GlobalAveragePool", "ReduceMean"), ("Mean",), params=Params,
                          cpp=CppKernel("npr_mean", head=("i8*", "int64")))


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    rank = len(x.shape)
    keepdims = 1
    if node.op_type == "GlobalAveragePool":
        axes = list(range(2, rank))
    else:
        axes = node.attr("axes")
        if axes is None and len(node.inputs) > 1:
            c = b.plain_const(node, 1)
            axes = None if c is None else np.asarray(c).reshape(-1).tolist()
        if axes is None:
            axes = list(range(rank))
        keepdims = int(node.attr("keepdims", 1))
    axes = sorted(int(a) % rank for a in axes)
    if 0 in axes:
        raise InputError(f"node {node.name}: {node.op_type} reduces the batch axis; reduce over feature axes only")
    count = int(np.prod([x.shape[a] for a in axes]))
    m, s = fixedpoint.quantize_multiplier(float(np.float32(x.scale)) / float(np.float32(out.scale)))
    m, s = fixedpoint.mean_multiplier(m, s, count)
    return IntOp(node.name, "Mean", (x.name,), (out.name,), as_params(Params(
        input_zero_point=x.zero_point, output_zero_point=out.zero_point, multiplier=m, shift=s,
        axes=axes, count=count, keepdims=keepdims, act_min=lo, act_max=hi)), b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    axes = tuple(p["axes"])
    x = inputs[0]
    if int(np.prod([x.shape[a] for a in axes])) != p["count"]:
        raise ValueError(f"{op.name}: reduced size differs from the exported count {p['count']}")
    acc = x.astype(np.int64).sum(axis=axes, keepdims=bool(p["keepdims"])) - p["input_zero_point"] * p["count"]
    mean = fixedpoint.multiply_by_quantized_multiplier(acc, p["multiplier"], p["shift"], op.rounding)
    return fixedpoint.saturate(mean.astype(np.int64) + p["output_zero_point"], p["act_min"], p["act_max"])
