"""Helpers that build probe graphs with onnx.helper (shapes of outputs filled in by shape inference)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper

from npuready.lint import examples as ex

X_SHAPE = (1, 16, 8, 8)


def finish(m: onnx.ModelProto) -> onnx.ModelProto:
    """Copy inferred shapes onto graph outputs declared without one."""
    inferred = onnx.shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
    known = {vi.name: vi for vi in list(inferred.graph.value_info) + list(inferred.graph.output)}
    for out in m.graph.output:
        if not out.type.tensor_type.HasField("shape") and out.name in known:
            out.CopyFrom(known[out.name])
    return m


def single(op: str, attrs: dict[str, Any] | None = None, extra: Sequence[tuple[str, np.ndarray]] = (),
           shape: Sequence[int] = X_SHAPE, opset: int = ex.OPSET, dtype: int = TensorProto.FLOAT,
           n_outputs: int = 1, out_dtypes: Sequence[int] | None = None, name: str | None = None) -> onnx.ModelProto:
    """x → op(x, *constant extras) → y (plus further outputs when the op has them)."""
    inputs = ["x"] + [n if n else "" for n, _ in extra]
    outputs = ["y"] + [f"y{i}" for i in range(1, n_outputs)]
    node = helper.make_node(op, inputs, outputs, name=op.lower(), **(attrs or {}))
    inits = [ex.const(n, a) for n, a in extra if n]
    out_types = out_dtypes or [dtype] * n_outputs
    m = ex.model([node], [ex.value("x", list(shape), dtype)],
                 [ex.value(o, None, t) for o, t in zip(outputs, out_types)], inits,
                 name=name or f"probe_{op.lower()}", opset=opset)
    return finish(m)


def chain(nodes: list[onnx.NodeProto], shape: Sequence[int], inits: Sequence[onnx.TensorProto] = (),
          outputs: Sequence[tuple[str, int]] = (("y", TensorProto.FLOAT),), opset: int = ex.OPSET,
          name: str = "probe", extra_inputs: Sequence[onnx.ValueInfoProto] = ()) -> onnx.ModelProto:
    m = ex.model(nodes, [ex.value("x", list(shape))] + list(extra_inputs), [ex.value(o, None, t) for o, t in outputs],
                 inits, name=name, opset=opset)
    return finish(m)


def i64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def f32(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float32)
