"""Lookup-table activations (Sigmoid, Tanh, HardSigmoid, HardSwish, GELU, LeakyRelu, Elu) on int8 codes.

A 256-entry table is built once at export from the float function evaluated at every input code
(``fixedpoint.quantize_table``); execution is a pure table lookup, as TFLite's int8 LUT kernels do.
"""
from __future__ import annotations

import math

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.errors import InputError


def _gelu(x, approximate: str = "none"):
    x = x.astype(np.float64)
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def function(node):
    """The float function of ``node`` (attributes applied)."""
    op = node.op_type
    if op == "Sigmoid":
        return lambda x: 1 / (1 + np.exp(-x.astype(np.float64)))
    if op == "Tanh":
        return np.tanh
    if op == "HardSigmoid":
        a, b = node.attr("alpha", 0.2), node.attr("beta", 0.5)
        return lambda x: np.clip(a * x + b, 0, 1)
    if op == "HardSwish":
        return lambda x: x * np.clip(x / 6 + 0.5, 0, 1)
    if op == "Gelu":
        return lambda x: _gelu(x, node.attr("approximate", "none"))
    if op == "LeakyRelu":
        a = node.attr("alpha", 0.01)
        return lambda x: np.where(x >= 0, x, a * x)
    if op == "Elu":
        a = node.attr("alpha", 1.0)
        return lambda x: np.where(x >= 0, x, a * (np.exp(x.astype(np.float64)) - 1))
    raise InputError(f"node {node.name}: no lookup table for {op}")


OPS = ("Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "Gelu", "LeakyRelu", "Elu")


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    x = b.act(node, 0)
    out, lo, hi = b.output(node)
    table = fixedpoint.quantize_table(function(node), x.scale, x.zero_point, out.scale, out.zero_point)
    table = np.clip(table, lo, hi).astype(np.int8)
    return IntOp(node.name, "Lut", (x.name,), (out.name,), {"table": table, "function": node.op_type}, b.rounding)


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    return op.params["table"][inputs[0].astype(np.int16) + 128]
