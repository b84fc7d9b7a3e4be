"""Lookup-table activations (Sigmoid, Tanh, HardSigmoid, HardSwish, GELU, LeakyRelu, Elu) on int8 codes.

A 256-entry table is built once at export from the float function evaluated at every input code
(``fixedpoint.quantize_table``); execution is a pure table lookup, as TFLite's int8 LUT kernels do.
LeakyRelu's table is TFLite's integer formula (identity/alpha fixed-point multipliers) and Sigmoid's is
LiteRT's float32 LOGISTIC lookup table (Tanh: TANH; ``fixedpoint.tflite_float_table``) followed by a
requantisation and HardSwish's is
TFLite's int16 fixed-point HARD_SWISH, so these match LiteRT's kernels exactly; the other tables are
float-derived (declared, not TFLite's kernels).
"""
from __future__ import annotations

import math

import numpy as np

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp, QTensor
from npuready.engine.ops.descriptor import OpDescriptor
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


OPS = ("Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "Gelu", "LeakyRelu", "Elu", "Erf")
#: Pow by a constant scalar only: a table (a decomposed LayerNorm's (v + eps)^-1/2)
DESCRIPTOR = OpDescriptor((*OPS, "Pow"), ("Lut",))
SCALAR_OPS = ("Div", "Mul", "Add", "Sub", "Pow")


def _scalar(graph, node, quantised=()) -> tuple[int, float] | None:
    """(position of the activation, scalar) when ``node`` combines one input with a plain float scalar."""
    if node.op_type not in SCALAR_OPS or len(node.inputs) != 2:
        return None
    for pos in (0, 1):
        other = node.inputs[1 - pos]
        c = None if other in quantised else graph.constant(other)
        if c is not None and np.size(c) == 1 and np.asarray(c).dtype.kind == "f":
            return pos, float(np.asarray(c).reshape(()))
    return None


def _scalar_fn(op: str, pos: int, c: float):
    x_first = pos == 0
    return {"Div": (lambda x: x / c) if x_first else (lambda x: c / x),
            "Mul": lambda x: x * c, "Add": lambda x: x + c,
            "Sub": (lambda x: x - c) if x_first else (lambda x: c - x),
            "Pow": (lambda x: x ** c) if x_first else (lambda x: c ** x)}[op]


def unary_function(graph, node, quantised=()):
    """The float function of an elementwise unary node (or None); ``quantised``: constants behind a DQ."""
    if node.op_type in OPS:
        return np.vectorize(math.erf) if node.op_type == "Erf" else function(node)
    sc = _scalar(graph, node, quantised)
    return None if sc is None else _scalar_fn(node.op_type, *sc)


def _unary(b, node):
    return unary_function(b.graph, node, b.const_dq)


def chain(graph, node, quantised_acts, quantised_consts=()) -> list:
    """The unary nodes from ``node`` up to the first one whose output is quantised (one table for all)."""
    nodes, cur = [node], node
    while cur.outputs[0] not in quantised_acts:
        users = graph.consumers.get(cur.outputs[0], ())
        if (len(users) != 1 or users[0].op_type in ("Relu", "Clip")
                or unary_function(graph, users[0], quantised_consts) is None):
            break
        cur = users[0]
        nodes.append(cur)
    return nodes


def table(graph, nodes, x, out, lo: int, hi: int, rounding: str, quantised_consts=()) -> np.ndarray:
    """The int8 table of a chain of unary ``nodes`` from input quantisation ``x`` to ``out`` (.scale,
    .zero_point), clamped to [lo, hi]; ``rounding`` is the one the Lut kind resolves to."""
    names = [n.op_type for n in nodes]
    fns = [unary_function(graph, n, quantised_consts) for n in nodes]

    def composed(v):
        for f in fns:
            v = f(np.asarray(v, np.float64))
        return v

    if names == ["LeakyRelu"]:
        t = _leaky_relu_table(nodes[0], x, out, rounding)
    elif names == ["Sigmoid"]:
        t = _fixed_table(fixedpoint.tflite_logistic_lut(x.scale, x.zero_point), 1.0 / 256.0, -128, out, rounding)
    elif names == ["HardSwish"]:
        t = fixedpoint.tflite_hardswish_table(x.scale, x.zero_point, out.scale, out.zero_point)
    elif names == ["Tanh"]:
        t = _fixed_table(fixedpoint.tflite_tanh_lut(x.scale, x.zero_point), 1.0 / 128.0, 0, out, rounding)
    else:
        t = fixedpoint.quantize_table(composed, x.scale, x.zero_point, out.scale, out.zero_point)
    return np.clip(t, lo, hi).astype(np.int8)


def is_unary(b, node) -> bool:
    """A unary elementwise node reading an int8 activation: the start of a lookup-table chain.

    A lone Add/Sub/Mul/Div by a scalar (its output quantised right away) is not a table: it runs as TFLite
    does, the binary kernel with the scalar as an int8 constant (Div: its reciprocal; ``mul.py``, ``add.py``)."""
    if node.op_type in ("Add", "Sub", "Mul", "Div") and node.outputs[0] in b.q_of:
        return False
    return bool(node.inputs) and node.inputs[0] in b.act_dq and _unary(b, node) is not None


def _leaky_relu_table(node, x, out, rounding: str) -> np.ndarray:
    """TFLite's integer LeakyRelu evaluated for every code: identity and alpha multipliers, no float."""
    alpha = float(node.attr("alpha", 0.01))
    m_id, s_id = fixedpoint.quantize_multiplier(float(np.float32(x.scale)) / float(np.float32(out.scale)))
    m_a, s_a = fixedpoint.quantize_multiplier(float(np.float32(np.float32(x.scale) * np.float32(alpha)))
                                              / float(np.float32(out.scale)))
    v = np.arange(-128, 128, dtype=np.int64) - x.zero_point
    y = np.where(v >= 0, fixedpoint.multiply_by_quantized_multiplier(v, m_id, s_id, rounding),
                 fixedpoint.multiply_by_quantized_multiplier(v, m_a, s_a, rounding))
    return fixedpoint.saturate(y.astype(np.int64) + out.zero_point, -128, 127)


def _fixed_table(table: np.ndarray, scale: float, zero_point: int, out, rounding: str) -> np.ndarray:
    """A TFLite kernel table with fixed output quantisation (LOGISTIC 1/256,-128; TANH 1/128,0) requantised
    to ``out`` as the TFLite export does (QUANTIZE int8 → int8)."""
    from npuready.engine.ops import rescale

    fixed = QTensor("fixed", "fixed", (256,), scale, zero_point)
    return rescale.apply(rescale.params(fixed, out), table, -128, 127, rounding)


# ----- params -------------------------------------------------------------------------------
def build(b, node) -> IntOp:
    """One table for the chain of unary nodes from ``node`` to the next QuantizeLinear (e.g. Div → Erf).

    A chain whose output is quantised only after a layout op (HardSwish → Flatten → QuantizeLinear at the
    end of MobileNetV3) is an elementwise function that commutes with it: the table writes the layout
    op's output (its quantisation and shape) and the layout op joins this op."""
    x = b.act(node, 0)
    nodes = chain(b.graph, node, b.q_of, b.const_dq)
    b.fused.update(n.name for n in nodes[1:])
    last = layout_user(b.graph, nodes[-1].outputs[0], b.q_of) or nodes[-1]
    out, lo, hi = b.output(last)
    params = {"function": "→".join(n.op_type for n in nodes)}
    if last is not nodes[-1]:
        b.fused.add(last.name)
        shape = [int(d) for d in b.graph.info(last.outputs[0]).shape]
        params.update(shape=shape[1:], full_shape=shape)
        if not x.shape or shape[0] != x.shape[0]:
            b.batchable = False
        params["function"] += "→" + last.op_type
    t = table(b.graph, nodes, x, out, lo, hi, fixedpoint.resolve_rounding(b.rounding, "Lut"), b.const_dq)
    return IntOp(node.name, "Lut", (x.name,), (out.name,), {"table": t, **params}, b.rounding)


LAYOUT = ("Flatten", "Reshape", "Squeeze", "Unsqueeze")


def layout_user(graph, name: str, quantised_acts):
    """The layout op that alone reads unquantised ``name`` and whose output is quantised, else None."""
    users = graph.consumers.get(name, ())
    if name in quantised_acts or len(users) != 1 or users[0].op_type not in LAYOUT:
        return None
    return users[0] if users[0].outputs[0] in quantised_acts else None


def reshaped(p, y: np.ndarray) -> np.ndarray:
    """The table's output in the layout op's shape (when one joined the table)."""
    if "full_shape" not in p:
        return y
    return y.reshape(p["full_shape"]) if y.shape[0] == 1 else y.reshape(y.shape[0], *p["shape"])


# ----- loop + epilogue ----------------------------------------------------------------------
def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    return reshaped(op.params, op.params["table"][inputs[0].astype(np.int16) + 128])
