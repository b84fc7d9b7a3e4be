"""LayerNormalization → the primitive ops an int8 converter emits, before quantisation.

TFLite has no LayerNorm builtin; converters lower it to MEAN, SUB, MUL, MEAN, ADD, RSQRT, MUL, MUL, ADD
with every intermediate quantised. Rewriting the float ONNX graph the same way before calibration gives
each intermediate its own calibrated int8 scale, so the integer engine and LiteRT run the same sequence
of int8 kernels the engine already has (Mean, Mul, Add, a table for ``(v + ε)^-½``, Mul, Add). The
centring is ``x + (-1·m)`` rather than ``x - m`` because onnxruntime's QDQ quantiser quantises around Add
and Mul but leaves Sub and ReduceMean in float when nothing registered consumes them:

``m = ReduceMean(x); d = x + (-1·m); v = ReduceMean(d·d); r = Pow(v + ε, -0.5); y = d·r·γ + β``

The float result equals LayerNormalization's up to float32 rounding; the integer build then follows
TFLite's int8 arithmetic op by op. Axis: the normalised axes are ``axis … rank-1`` (ONNX semantics).
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

from npuready.errors import InputError


def _axes_const(g, name: str, axes: list[int]) -> str:
    g.initializer.append(numpy_helper.from_array(np.asarray(axes, np.int64), name))
    return name


def _scalar_const(g, name: str, value: float) -> str:
    g.initializer.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
    return name


def _rank(model: onnx.ModelProto, tensor: str) -> int | None:
    for vi in list(model.graph.value_info) + list(model.graph.input) + list(model.graph.output):
        if vi.name == tensor and vi.type.tensor_type.HasField("shape"):
            return len(vi.type.tensor_type.shape.dim)
    return None


def decompose_layernorm(model: onnx.ModelProto) -> tuple[onnx.ModelProto, int]:
    """A copy of ``model`` with every LayerNormalization (single output) rewritten; (model, count)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    if not any(n.op_type == "LayerNormalization" for n in m.graph.node):
        return m, 0
    m = onnx.shape_inference.infer_shapes(m)
    g = m.graph
    opset = max((o.version for o in m.opset_import if o.domain in ("", "ai.onnx")), default=17)
    if opset < 18:  # ReduceMean takes axes as an attribute before opset 18
        def mean(name, src, axes, out):
            return helper.make_node("ReduceMean", [src], [out], name=name, axes=axes, keepdims=1)
    else:
        def mean(name, src, axes, out):
            return helper.make_node("ReduceMean", [src, _axes_const(g, f"{name}#axes", axes)], [out], name=name,
                                    keepdims=1)
    nodes, count = [], 0
    for node in g.node:
        if node.op_type != "LayerNormalization" or (len(node.output) > 1 and any(node.output[1:])):
            nodes.append(node)
            continue
        rank = _rank(m, node.input[0])
        if rank is None:
            raise InputError(f"node {node.name} (LayerNormalization): input {node.input[0]} has no known rank; "
                             "export with static shapes before decomposing LayerNorm")
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        axis = int(attrs.get("axis", -1)) % rank
        eps = float(attrs.get("epsilon", 1e-5))
        axes = list(range(axis, rank))
        p = node.name or node.output[0]
        x, out = node.input[0], node.output[0]
        t = {k: f"{p}/{k}" for k in ("mean", "neg", "d", "sq", "var", "vareps", "rstd", "norm", "scaled")}
        nodes += [
            mean(f"{p}/ReduceMean", x, axes, t["mean"]),
            helper.make_node("Mul", [t["mean"], _scalar_const(g, f"{p}#minus_one", -1.0)], [t["neg"]],
                             name=f"{p}/Negate"),
            helper.make_node("Add", [x, t["neg"]], [t["d"]], name=f"{p}/Center"),
            helper.make_node("Mul", [t["d"], t["d"]], [t["sq"]], name=f"{p}/Square"),
            mean(f"{p}/ReduceMeanSquare", t["sq"], axes, t["var"]),
            helper.make_node("Add", [t["var"], _scalar_const(g, f"{p}#eps", eps)], [t["vareps"]], name=f"{p}/AddEps"),
            helper.make_node("Pow", [t["vareps"], _scalar_const(g, f"{p}#minus_half", -0.5)], [t["rstd"]],
                             name=f"{p}/Rsqrt"),
            helper.make_node("Mul", [t["d"], t["rstd"]], [t["norm"]], name=f"{p}/Normalize"),
        ]
        has_beta = len(node.input) > 2 and node.input[2]
        nodes.append(helper.make_node("Mul", [t["norm"], node.input[1]], [t["scaled"] if has_beta else out],
                                      name=f"{p}/Scale"))
        if has_beta:
            nodes.append(helper.make_node("Add", [t["scaled"], node.input[2]], [out], name=f"{p}/Shift"))
        count += 1
    del g.node[:]
    g.node.extend(nodes)
    return m, count
