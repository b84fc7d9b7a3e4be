"""The default-domain opset raised to at least ``MIN_OPSET`` with onnx's own version converter.

Opset 13 is where ``QuantizeLinear``/``DequantizeLinear`` take an ``axis`` (per-channel weights); a QDQ model
written at opset 11 is invalid. A model the converter cannot convert is kept at its opset (recorded as
``opset-kept`` with the converter's reason); ``quantize`` then refuses it by name.
"""
from __future__ import annotations

import onnx
from onnx import version_converter

from npuready.importer.edit import all_names, fresh
from npuready.importer.record import Rewrite

MIN_OPSET = 13


def default_opset(model: onnx.ModelProto) -> int | None:
    return next((i.version for i in model.opset_import if i.domain in ("", "ai.onnx")), None)


def rewrite(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[Rewrite]]:
    before = default_opset(model)
    if before is None or before >= MIN_OPSET:
        return model, []
    try:
        converted = version_converter.convert_version(model, MIN_OPSET)
    except Exception as exc:  # the converter raises RuntimeError/ValidationError/… on what it cannot convert
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        return model, [Rewrite("opset-kept", (), f"opset {before} kept: onnx's version converter failed ({reason})")]
    simplified = _plain_softmax(converted)
    added = _name_new_nodes(model, converted)
    extra = f"; {len(added)} node(s) added (attributes that became inputs)" if added else ""
    if simplified:
        extra += f"; {len(simplified)} Softmax-family node(s) kept whole (the axes after theirs are 1)"
    return converted, [Rewrite("opset-upgraded", tuple(added),
                               f"default-domain opset {before} → {MIN_OPSET} (onnx.version_converter){extra}")]


def _name_new_nodes(before: onnx.ModelProto, after: onnx.ModelProto) -> list[str]:
    """Name the nodes the converter added (``Constant`` axes/ratio inputs: outputs the original model has no
    node for) after the value they write, so every stage and report shows the same name. Nodes of the
    original model keep theirs, named or not."""
    original = {o for n in before.graph.node for o in n.output if o}
    taken = all_names(after.graph) | {n.name for n in before.graph.node}
    added = []
    for n in after.graph.node:
        if not n.name and n.output and not original.intersection(n.output):
            n.name = fresh(taken, f"{n.op_type}_{n.output[0].strip('_')}")
            added.append(n.name)
    return added


_SOFTMAX = ("Softmax", "LogSoftmax", "Hardmax")


def _plain_softmax(model: onnx.ModelProto) -> list[str]:
    """Undo the converter's ``Shape; Flatten(axis) → Softmax(-1) → Reshape`` (how it keeps a Softmax-11's
    "flatten from axis" meaning at opset 13) where the input's dims after the axis are all 1: there the two
    meanings agree, and one ``Softmax(axis)`` writing the Reshape's output is what the user's graph said."""
    g = model.graph
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
    except Exception:
        return []
    shapes = {vi.name: vi.type.tensor_type.shape for vi in list(inferred.graph.value_info) + list(inferred.graph.input)
              if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape")}
    prods = {o: n for n in g.node for o in n.output if o}
    users: dict[str, list] = {}
    for n in g.node:
        for v in n.input:
            users.setdefault(v, []).append(n)
    done, doomed = [], []
    for soft in [n for n in g.node if n.op_type in _SOFTMAX]:
        flat = prods.get(soft.input[0])
        after = users.get(soft.output[0], [])
        if flat is None or flat.op_type != "Flatten" or len(after) != 1 or after[0].op_type != "Reshape":
            continue
        reshape = after[0]
        shape_node = prods.get(reshape.input[1])
        x = flat.input[0]
        if shape_node is None or shape_node.op_type != "Shape" or shape_node.input[0] != x:
            continue
        if len(users.get(flat.output[0], [])) != 1 or len(users.get(shape_node.output[0], [])) != 1:
            continue
        axis = next((a.i for a in flat.attribute if a.name == "axis"), 1)
        dims = shapes.get(x)
        if dims is None:
            continue
        axis = axis + len(dims.dim) if axis < 0 else axis
        tail = dims.dim[axis + 1:]
        if not all(d.HasField("dim_value") and d.dim_value == 1 for d in tail):
            continue
        soft.input[0] = x
        soft.output[0] = reshape.output[0]
        for a in soft.attribute:
            if a.name == "axis":
                a.i = axis
        doomed += [flat, reshape, shape_node]
        done.append(soft.name)
    keys = {(n.op_type, tuple(n.output)) for n in doomed}
    for i in reversed([i for i, n in enumerate(g.node) if (n.op_type, tuple(n.output)) in keys]):
        del g.node[i]
    return done
