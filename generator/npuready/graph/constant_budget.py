"""The budget for compile-time values (declared elements × item size), checked before folding and symbolic
inference.

Constant folding (onnxruntime's, ``graph.ort_fold``) and onnxruntime's symbolic shape inference both
*materialise* the values of compile-time computations: a 290-byte model whose ``ConstantOfShape`` reads the
constant shape [2^30] makes the symbolic pass allocate 8 GiB of int64 ones (then ``NonZero`` of it), and the
folding pass the same in float. So before either runs, every value that is computable at compile time
(initializers, ``Constant``, ``Shape``/``Size`` of a static tensor, and deterministic standard ops whose
inputs all are) has its element count taken from onnx's shape inference (which computes shapes, not values)
and, for ``ConstantOfShape``, from its constant shape input directly; times its element type's size that is
the memory a pass would materialise. Above the budget the model is refused with one line naming the node,
its output, the count and the bytes (``ConstantBudgetExceeded``, exit 2). Only models onnx's inference
leaves unresolved reach the two passes (``graph.resolve``), so only those are checked.

The budget is process-wide: ``inputs.budget.MAX_CONSTANT_BYTES`` (512 MiB: the 411 MB float weights a
weight-less VGG-19 computes with ConstantOfShape pass, [2^26] int64 = 512 MiB is the largest accepted), changed by
the CLI option ``--max-constant-bytes N`` (``commands.shape_args``) through ``set_limit``.
Subgraphs (If/Loop bodies) are not walked: neither pass folds inside them.
"""
from __future__ import annotations

import math

import onnx
from onnx import numpy_helper

from npuready.errors import InputError
from npuready.graph import families
from npuready.inputs.budget import MAX_CONSTANT_BYTES as DEFAULT_MAX_CONSTANT_BYTES
OPTION = "--max-constant-bytes"
NONDETERMINISTIC = families.RANDOM
_limit = DEFAULT_MAX_CONSTANT_BYTES


class ConstantBudgetExceeded(InputError):
    """A compile-time value above the budget (the loader lets it through as bad input, exit 2)."""


def set_limit(max_bytes: int | None) -> None:
    """Set the process-wide budget in bytes (None: the default)."""
    global _limit
    if max_bytes is not None and (isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1):
        raise InputError(f"{OPTION} {max_bytes}: must be a positive whole number of bytes")
    _limit = DEFAULT_MAX_CONSTANT_BYTES if max_bytes is None else max_bytes


def limit() -> int:
    return _limit


def _itemsize(vi: onnx.ValueInfoProto | None) -> int:
    """Bytes per element of the value's type (8 when unknown: the symbolic pass holds ints as int64)."""
    try:
        return onnx.helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type).itemsize
    except Exception:  # no type, or one numpy has no dtype for
        return 8


def _static_dims(vi: onnx.ValueInfoProto) -> list[int] | None:
    if not vi.type.HasField("tensor_type") or not vi.type.tensor_type.HasField("shape"):
        return None
    dims = vi.type.tensor_type.shape.dim
    return [d.dim_value for d in dims] if all(d.HasField("dim_value") for d in dims) else None


def _small_value(name: str, inits: dict, consts: dict):
    tensor = inits.get(name) or consts.get(name)
    if tensor is None or math.prod(tensor.dims) > 64:
        return None
    try:
        return numpy_helper.to_array(tensor).reshape(-1).tolist()
    except Exception:  # an odd dtype: not a shape vector
        return None


def check(model: onnx.ModelProto, label: str = "model", max_bytes: int | None = None) -> None:
    """Raise ``ConstantBudgetExceeded`` when a compile-time value of ``model`` (already through onnx's shape
    inference) declares more than ``max_bytes`` (default: the process-wide budget)."""
    budget = limit() if max_bytes is None else max_bytes
    g = model.graph
    infos = {vi.name: vi for vi in (*g.input, *g.value_info, *g.output)}
    shapes = {name: d for name, vi in infos.items() if (d := _static_dims(vi)) is not None}
    inits = {t.name: t for t in g.initializer}
    consts: dict[str, onnx.TensorProto] = {}
    known = set(inits)
    for node in g.node:
        if node.domain not in ("", "ai.onnx") or node.op_type in NONDETERMINISTIC:
            continue
        ins = [i for i in node.input if i]
        if node.op_type == "Constant":
            value = next((a.t for a in node.attribute if a.name == "value" and a.HasField("t")), None)
            if value is not None and node.output:
                consts[node.output[0]] = value
        elif node.op_type in ("Shape", "Size"):
            if not ins or ins[0] not in shapes:
                continue
        elif not ins or not all(i in known for i in ins) or any(a.HasField("g") or a.graphs for a in node.attribute):
            continue
        outs = [o for o in node.output if o]
        known.update(outs)
        for out in outs:
            count = math.prod(shapes[out]) if out in shapes else None
            if node.op_type == "ConstantOfShape" and (dims := _small_value(ins[0], inits, consts)) is not None:
                count = max(count or 0, math.prod(max(int(d), 0) for d in dims))
            size = None if count is None else count * _itemsize(infos.get(out))
            if size is not None and size > budget:
                raise ConstantBudgetExceeded(
                    f"{label}: node '{node.name or node.op_type}' ({node.op_type}) computes the compile-time value "
                    f"'{out}' of {count:,} elements ({size:,} bytes), above the {budget:,}-byte budget for values "
                    f"that constant folding and shape inference materialise; raise it with {OPTION} N if the "
                    "model really needs it")
