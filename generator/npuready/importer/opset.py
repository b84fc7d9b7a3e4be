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
    added = _name_new_nodes(model, converted)
    extra = f"; {len(added)} Constant node(s) added for attributes that became inputs" if added else ""
    return converted, [Rewrite("opset-upgraded", tuple(added),
                               f"default-domain opset {before} → {MIN_OPSET} (onnx.version_converter){extra}")]


def _name_new_nodes(before: onnx.ModelProto, after: onnx.ModelProto) -> list[str]:
    """Name the nodes the converter added without a name (``Constant`` axes/ratio inputs) after the value
    they write, so every stage and report shows the same name."""
    taken = all_names(after.graph) | {n.name for n in before.graph.node}
    added = []
    for n in after.graph.node:
        if not n.name and n.output:
            n.name = fresh(taken, f"{n.op_type}_{n.output[0]}")
            added.append(n.name)
    return added
