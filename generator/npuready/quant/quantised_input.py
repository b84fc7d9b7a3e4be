"""Refuse a model that is already quantised: quantising it again is meaningless (and used to fail deep inside
calibration, e.g. ``internal error: KeyError: '140_scale'`` on ddddocr's ORT-dynamic-quantised
``common_old.onnx``)."""
from __future__ import annotations

from collections import Counter

from npuready.errors import InputError

QUANTISED_OPS = frozenset({"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "MatMulInteger",
                           "ConvInteger", "DynamicQuantizeMatMul", "MatMulIntegerToFloat"})


def quantised_ops(op_types) -> Counter:
    """How many nodes of each quantised op type (``QLinear*`` included) are among ``op_types``."""
    return Counter(op for op in op_types if op in QUANTISED_OPS or op.startswith("QLinear"))


def refuse_quantised(graph, label: str) -> None:
    """``InputError`` naming the quantised ops when ``graph`` (a ``Graph``) has any."""
    found = quantised_ops(n.op_type for _, n in graph.walk())
    if found:
        ops = ", ".join(f"{n} {op}" for op, n in found.most_common())
        raise InputError(f"{label}: already quantised ({ops}); give the float model it was quantised from")
