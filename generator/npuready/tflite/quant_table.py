"""Quantization parameters read from a QDQ ONNX model, keyed by the float tensor names.

``strip_qdq(model)`` turns a QDQ model into (float model, QuantTable):

* ``X → QuantizeLinear → DequantizeLinear → Y`` on an activation: the pair is removed, consumers of
  ``Y`` read ``X``, and ``act[X]`` holds the scale/zero point. ``aliases`` records ``Y`` and the
  quantized name as other names of ``X`` (so the ONNX ↔ TFLite map answers for all three).
* ``DequantizeLinear(int initializer)`` (weights int8, bias int32): replaced by the dequantized float
  initializer of the same output name; ``const[name]`` holds the integers and their QParams (axis
  = the ONNX per-channel axis).

uint8 activations are shifted exactly to int8 (q - 128, zero point - 128): the real values are
identical. uint8 weights are refused (TFLite needs symmetric int8 weights).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import numpy_helper

from npuready.errors import InputError
from npuready.graph import Graph
from npuready.tflite.builder import QParams


@dataclass(frozen=True)
class QConst:
    q: np.ndarray
    qp: QParams


@dataclass(frozen=True)
class QuantTable:
    act: dict[str, QParams]
    const: dict[str, QConst]
    aliases: dict[str, str] = field(default_factory=dict)  # other ONNX name -> float tensor name


def _params(graph: Graph, node) -> tuple[np.ndarray, np.ndarray, int]:
    scale = graph.constant(node.inputs[1])
    if scale is None:
        raise InputError(f"node {node.name!r} ({node.op_type}): scale must be a constant")
    zp = graph.constant(node.inputs[2]) if len(node.inputs) > 2 and node.inputs[2] else np.zeros((), np.int8)
    if zp is None:
        raise InputError(f"node {node.name!r} ({node.op_type}): zero point must be a constant")
    axis = int(node.attr("axis", 1))
    return np.asarray(scale, np.float64), np.asarray(zp), axis


def strip_qdq(model: onnx.ModelProto) -> tuple[onnx.ModelProto, QuantTable]:
    graph = Graph.from_model(model)
    act: dict[str, QParams] = {}
    const: dict[str, QConst] = {}
    rename: dict[str, str] = {}
    new_inits: list[onnx.TensorProto] = []
    drop: set[str] = set()
    for node in graph.nodes:
        if node.op_type == "DequantizeLinear" and graph.is_constant(node.inputs[0]):
            q = np.asarray(graph.constant(node.inputs[0]))
            scale, zp, axis = _params(graph, node)
            if q.dtype == np.uint8:
                raise InputError(f"node {node.name!r}: uint8 constant {node.inputs[0]!r}; TFLite needs "
                                 "symmetric int8 weights (quantize with weight_type=QInt8, WeightSymmetric)")
            axis = axis % max(q.ndim, 1)
            if scale.size > 1:
                shp = [1] * q.ndim
                shp[axis] = scale.size
                f = (q.astype(np.float64) - zp.astype(np.float64).reshape(shp)) * scale.reshape(shp)
            else:
                f = (q.astype(np.float64) - zp.astype(np.float64)) * scale
            out = node.outputs[0]
            new_inits.append(numpy_helper.from_array(f.astype(np.float32), out))
            const[out] = QConst(q, QParams.of(scale, zp, axis if scale.size > 1 else 0))
            drop.add(node.outputs)
        elif node.op_type == "QuantizeLinear":
            src = node.inputs[0]
            if graph.is_constant(src):
                raise InputError(f"node {node.name!r}: QuantizeLinear of constant {src!r}; store the "
                                 "quantized initializer (quantize_static does) instead")
            scale, zp, _ = _params(graph, node)
            if scale.size != 1:
                raise InputError(f"node {node.name!r}: per-channel activation quantization of {src!r}; "
                                 "TFLite activations are per-tensor")
            z = int(zp.reshape(-1)[0])
            if zp.dtype == np.uint8:
                z -= 128
            elif zp.dtype != np.int8:
                raise InputError(f"node {node.name!r}: {zp.dtype} activations; only int8/uint8 are exported")
            qp = QParams.of(scale.reshape(-1)[0], z)
            src = rename.get(src, src)
            if src in act and not act[src].same_as(qp):
                raise InputError(f"tensor {src!r}: quantized twice with different scales "
                                 f"({act[src].scale[0]:g}/{act[src].zero_point[0]} vs {qp.scale[0]:g}/{z})")
            act[src] = qp
            rename[node.outputs[0]] = src
            for user in graph.consumers.get(node.outputs[0], ()):
                if user.op_type != "DequantizeLinear":
                    raise InputError(f"node {user.name!r} ({user.op_type}): consumes quantized tensor "
                                     f"{node.outputs[0]!r} directly; only Q→DQ pairs are supported")
                rename[user.outputs[0]] = src
                drop.add(user.outputs)
            drop.add(node.outputs)
        elif node.op_type == "DequantizeLinear" and node.inputs[0] not in rename:
            raise InputError(f"node {node.name!r}: DequantizeLinear of {node.inputs[0]!r} which is neither "
                             "a constant nor a QuantizeLinear output")
    out = onnx.ModelProto()
    out.CopyFrom(model)
    g = out.graph
    keep = [n for n in model.graph.node if tuple(n.output) not in drop]
    del g.node[:]
    for n in keep:
        for i, name in enumerate(n.input):
            if name in rename:
                n.input[i] = rename[name]
        g.node.append(n)
    init_keep = [t for t in g.initializer if t.name not in {i.name for i in new_inits}]
    used = {i for n in keep for i in n.input}
    del g.initializer[:]
    g.initializer.extend(t for t in init_keep if t.name in used)
    g.initializer.extend(t for t in new_inits if t.name in used)
    for o in g.output:
        if o.name in rename:
            o.name = rename[o.name]
    del g.value_info[:]
    aliases = {k: v for k, v in rename.items()}
    return out, QuantTable(act, const, aliases)

