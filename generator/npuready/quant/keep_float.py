"""Keep chosen layers of a QDQ model in float: the mixed-precision build ``quantize --keep-float`` writes.

A kept layer reads its original float weights and bias (from the float model; the stored int8/int32
values dequantised when the float model lacks them) and computes in float. An activation between kept nodes
stays float too: its QuantizeLinear → DequantizeLinear pair becomes a Clip to the same int8 range (saturation,
and any Relu/Clip the quantiser folded into that range, stay; the rounding goes), and a weightless op (Add,
pooling, Flatten, …) whose every input comes from a kept node joins them. Activations entering or leaving the
kept nodes stay int8, so each run of kept nodes is a float island between DequantizeLinear and QuantizeLinear.
The kept node names (the inserted Clips included) are recorded in the model's metadata (``METADATA_KEY``):
the integer export (``engine.ops.float_island``) runs those nodes in float on the CPU.

``quantised_layers`` lists the layers a QDQ model quantises (nodes with a weight or bias behind a
DequantizeLinear) and the QuantizeLinear of each one's output.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import onnx
from onnx import numpy_helper

from npuready.errors import InputError

METADATA_KEY = "npuready.keep_float"
_SKIP = {"QuantizeLinear", "DequantizeLinear", "Constant", "Identity"}
_CLAMPS = {"Relu", "Clip"}


@dataclass(frozen=True)
class Layer:
    name: str
    op_type: str
    weights: tuple[str, ...]      # DequantizeLinear outputs of its constant inputs (weights, bias)
    output: str | None            # the float tensor its output QuantizeLinear quantises (after Relu/Clip)
    quantize: str | None          # that QuantizeLinear's node name


def _consumers(model: onnx.ModelProto) -> dict[str, list[onnx.NodeProto]]:
    out: dict[str, list[onnx.NodeProto]] = {}
    for n in model.graph.node:
        for i in n.input:
            if i:
                out.setdefault(i, []).append(n)
    return out


def _output_quantize(node, consumers) -> onnx.NodeProto | None:
    name = node.output[0]
    for _ in range(4):
        users = consumers.get(name, [])
        if len(users) == 1 and users[0].op_type == "QuantizeLinear":
            return users[0]
        if len(users) != 1 or users[0].op_type not in _CLAMPS:
            return None
        name = users[0].output[0]
    return None


def quantised_layers(qdq: onnx.ModelProto) -> list[Layer]:
    """The layers of ``qdq`` with a quantised constant input, in graph order."""
    inits = {i.name for i in qdq.graph.initializer}
    consumers = _consumers(qdq)
    const_dq = {o for n in qdq.graph.node if n.op_type == "DequantizeLinear" and n.input[0] in inits
                for o in n.output}
    layers = []
    for node in qdq.graph.node:
        if node.op_type in _SKIP:
            continue
        weights = tuple(i for i in node.input if i in const_dq)
        if not weights:
            continue
        q = _output_quantize(node, consumers)
        layers.append(Layer(node.name, node.op_type, weights, q.input[0] if q is not None else None,
                            q.name if q is not None else None))
    return layers


def kept_float(model: onnx.ModelProto) -> list[str]:
    """The node names a mixed build keeps in float (its metadata), [] for a plain QDQ model."""
    for p in model.metadata_props:
        if p.key == METADATA_KEY:
            return list(json.loads(p.value))
    return []


def _float_value(dq: onnx.NodeProto, inits: dict, float_inits: dict) -> np.ndarray:
    """The float constant behind ``dq``: the float model's own, else the stored integers dequantised."""
    q = inits[dq.input[0]]
    for name in (dq.input[0].removesuffix("_quantized"), dq.output[0]):
        f = float_inits.get(name)
        if f is not None and f.shape == q.shape:
            return f.astype(np.float32)
    scale = inits[dq.input[1]].astype(np.float32)
    zp = inits[dq.input[2]].astype(np.float32) if len(dq.input) > 2 and dq.input[2] else np.zeros_like(scale)
    if scale.size > 1:
        axis = next((a.i for a in dq.attribute if a.name == "axis"), 1)
        shape = [1] * q.ndim
        shape[axis] = scale.size
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    return ((q.astype(np.float32) - zp) * scale).astype(np.float32)


def keep_float(qdq: onnx.ModelProto, float_model: onnx.ModelProto | None, names) -> onnx.ModelProto:
    """A copy of ``qdq`` with the layers ``names`` in float (see the module docstring)."""
    names = list(dict.fromkeys(names))
    layers = {layer.name: layer for layer in quantised_layers(qdq)}
    unknown = [n for n in names if n not in layers]
    if unknown:
        some = ", ".join(list(layers)[:5])
        raise InputError(f"--keep-float {unknown[0]}: no quantised layer of that name ({len(layers)} layers, "
                         f"e.g. {some}); list them with 'npuready sensitivity'")
    m = onnx.ModelProto()
    m.CopyFrom(qdq)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    float_inits = ({i.name: numpy_helper.to_array(i) for i in float_model.graph.initializer}
                   if float_model is not None else {})
    dq_of = {n.output[0]: n for n in m.graph.node if n.op_type == "DequantizeLinear"}
    added: dict[str, str] = {}
    for node in m.graph.node:
        if node.name not in names:
            continue
        for k, i in enumerate(node.input):
            if i not in layers[node.name].weights:
                continue
            if i not in added:
                added[i] = f"{i}_kept_float"
                m.graph.initializer.append(numpy_helper.from_array(_float_value(dq_of[i], inits, float_inits),
                                                                   added[i]))
            node.input[k] = added[i]
    kept = _float_edges(m, set(names) | set(kept_float(m)))
    _drop_unused(m)
    previous = kept_float(m)
    for p in list(m.metadata_props):
        if p.key == METADATA_KEY:
            m.metadata_props.remove(p)
    order = [n.name for n in m.graph.node if n.name in kept]
    m.metadata_props.add(key=METADATA_KEY, value=json.dumps(list(dict.fromkeys([*previous, *order]))))
    return m


def _source(node_of, consumers, tensor: str) -> tuple[onnx.NodeProto | None, list[onnx.NodeProto]]:
    """The node computing ``tensor`` before any single-consumer Relu/Clip chain, and that chain."""
    chain = []
    node = node_of.get(tensor)
    while node is not None and node.op_type in _CLAMPS and len(consumers.get(node.output[0], [])) == 1:
        chain.append(node)
        node = node_of.get(node.input[0])
    return node, chain


def _float_edges(m: onnx.ModelProto, kept: set[str]) -> set[str]:
    """Make activations between kept nodes float (Q/DQ pair → Clip to its range) and let weightless ops fed
    only by kept nodes join; returns the kept node names, the inserted Clips and folded clamps included."""
    graph_outputs = {o.name for o in m.graph.output}
    inits = {i.name: i for i in m.graph.initializer}
    changed = True
    while changed:
        changed = False
        node_of = {o: n for n in m.graph.node for o in n.output if o}
        consumers = _consumers(m)
        dq_src = {n.output[0]: n.input[0] for n in m.graph.node if n.op_type == "DequantizeLinear"}
        q_src = {n.output[0]: n.input[0] for n in m.graph.node if n.op_type == "QuantizeLinear"}

        def from_kept(act: str) -> bool:
            t = q_src.get(dq_src.get(act, ""), act)
            src, _ = _source(node_of, consumers, t)
            return src is not None and src.name in kept

        for n in m.graph.node:  # weightless ops whose every activation input comes from a kept node
            if n.name in kept or n.op_type in _SKIP or n.op_type in _CLAMPS:
                continue
            acts = [i for i in n.input if i and i not in inits and i in (set(dq_src) | set(node_of))]
            if acts and all(from_kept(i) for i in acts) and not any(i in dq_src and dq_src[i] in inits
                                                                     for i in n.input):
                kept.add(n.name)
                changed = True
        for q in [n for n in m.graph.node if n.op_type == "QuantizeLinear"]:
            src, chain = _source(node_of, consumers, q.input[0])
            dqs = [c for c in consumers.get(q.output[0], []) if c.op_type == "DequantizeLinear"]
            readers = [r for d in dqs for r in consumers.get(d.output[0], [])]
            if (src is None or src.name not in kept or not dqs or len(dqs) != len(consumers.get(q.output[0], []))
                    or any(d.output[0] in graph_outputs for d in dqs) or q.output[0] in graph_outputs
                    or not readers or any(r.name not in kept for r in readers)):
                continue
            kept.update(c.name for c in chain)
            kept.update(f"{d.name}_unrounded" for d in dqs)
            _unround(m, q, dqs)
            changed = True
            break  # the graph changed: recompute the maps
    return kept


def _unround(m: onnx.ModelProto, q: onnx.NodeProto, dqs) -> None:
    """Replace ``q`` and its DequantizeLinear readers ``dqs`` by Clips of ``q``'s input to its int8 range."""
    from onnx import helper

    inits = {i.name: i for i in m.graph.initializer}
    scale = float(numpy_helper.to_array(inits[q.input[1]]).reshape(()))
    zp = int(numpy_helper.to_array(inits[q.input[2]]).reshape(())) if len(q.input) > 2 and q.input[2] else 0
    lo, hi = f"{q.name}_unrounded_lo", f"{q.name}_unrounded_hi"
    m.graph.initializer.extend([numpy_helper.from_array(np.asarray((-128 - zp) * scale, np.float32), lo),
                                numpy_helper.from_array(np.asarray((127 - zp) * scale, np.float32), hi)])
    names = {d.name for d in dqs}
    for k, n in enumerate(m.graph.node):
        if n.name in names:
            m.graph.node[k].CopyFrom(helper.make_node("Clip", [q.input[0], lo, hi], list(n.output),
                                                      name=f"{n.name}_unrounded"))
    m.graph.node.remove(q)


def _drop_unused(m: onnx.ModelProto) -> None:
    """Remove DequantizeLinear nodes nothing reads any more, then initializers nothing reads."""
    outputs = {o.name for o in m.graph.output}
    while True:
        read = {i for n in m.graph.node for i in n.input} | outputs
        dead = [n for n in m.graph.node if n.op_type == "DequantizeLinear" and n.output[0] not in read]
        if not dead:
            break
        for n in dead:
            m.graph.node.remove(n)
    read = {i for n in m.graph.node for i in n.input} | outputs
    for init in [i for i in m.graph.initializer if i.name not in read]:
        m.graph.initializer.remove(init)
