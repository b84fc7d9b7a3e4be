"""Sparse initializers (``GraphProto.sparse_initializer``) read as dense ones, within the element budget.

onnxruntime accepts them; every later stage reads ``graph.initializer``. So the loader rewrites each into
the dense tensor it stands for (values scattered at their indices, zeros elsewhere), after checking the
declared element count against ``budget.MAX_ARRAY_ELEMENTS`` (so a 4-value tensor declaring 2^40 elements is
refused, not allocated) and that the indices are in range. Anything malformed is one ``InputError``.
"""
from __future__ import annotations

import math

import numpy as np
import onnx
from onnx import numpy_helper

from npuready.errors import InputError
from npuready.inputs import budget


def _dense(sp: onnx.SparseTensorProto, label: str) -> onnx.TensorProto:
    name = sp.values.name
    where = f"{label}: sparse initializer '{name}'"
    dims = [int(d) for d in sp.dims]
    if not name or any(d < 0 for d in dims):
        raise InputError(f"{where}: needs a name and non-negative dims, got dims {dims}")
    count = math.prod(dims)
    if count > budget.MAX_ARRAY_ELEMENTS:
        raise InputError(f"{where}: declares {count:,} elements, above the {budget.MAX_ARRAY_ELEMENTS:,}-element "
                         "budget; store it as a dense initializer or external data")
    try:
        values = numpy_helper.to_array(sp.values).reshape(-1)
        indices = numpy_helper.to_array(sp.indices).astype(np.int64)
    except (ValueError, TypeError, KeyError) as exc:
        raise InputError(f"{where}: unreadable values or indices ({exc})") from None
    if indices.ndim == 2 and indices.shape == (values.size, len(dims)) and dims:
        if (indices < 0).any() or (indices >= np.array(dims)).any():
            raise InputError(f"{where}: an index lies outside the dims {dims}")
        flat = np.ravel_multi_index(indices.T, dims) if values.size else indices.reshape(-1)
    elif indices.ndim == 1 and indices.size == values.size:
        flat = indices
        if flat.size and (flat.min() < 0 or flat.max() >= count):
            raise InputError(f"{where}: an index lies outside its {count:,} elements")
    else:
        raise InputError(f"{where}: indices of shape {list(indices.shape)} do not match {values.size} values "
                         f"and dims {dims}")
    dense = np.zeros(count, dtype=values.dtype)
    dense[flat] = values
    return numpy_helper.from_array(dense.reshape(dims), name)


def densify(model: onnx.ModelProto, label: str) -> onnx.ModelProto:
    """``model`` with its main graph's sparse initializers moved to dense ``initializer`` entries (in place).
    A sparse initializer inside a subgraph is refused (none of the stages reads those)."""
    for node in model.graph.node:
        for attr in node.attribute:
            for g in [attr.g] * attr.HasField("g") + list(attr.graphs):
                if g.sparse_initializer:
                    raise InputError(f"{label}: node '{node.name or node.op_type}': a subgraph holds a sparse "
                                     "initializer; move it to the main graph or store it dense")
    g = model.graph
    if not g.sparse_initializer:
        return model
    taken = {t.name for t in g.initializer}
    for sp in g.sparse_initializer:
        if sp.values.name in taken:
            raise InputError(f"{label}: sparse initializer '{sp.values.name}' repeats an initializer's name")
        g.initializer.append(_dense(sp, label))
        taken.add(sp.values.name)
    del g.sparse_initializer[:]
    return model
