"""The integer graph: int8 tensors with (scale, zero point), ops with integer-only parameters.

Produced by ``engine.export.export_integer_graph`` from a QDQ ONNX model, executed by the NumPy
engine (``engine.numpy_engine``) and the C++ twin (``engine.cpp_engine``). Every op carries its
declared ``rounding`` (one of ``fixedpoint.ROUNDINGS``); the graph records it and so does every
result built from it. Layout is ONNX's (NCHW); the leading dimension is the batch.
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from npuready.atomic import write_bytes
from npuready.errors import InputError


class QuantParamError(InputError):
    """A quantisation parameter stored in the QDQ model that no integer build can use (non-finite or
    non-positive scale, a bias whose scale is not input scale × weight scale, a non-zero bias zero point).
    The message names the tensor; the parity gate reports it as a failed integer rung."""


@dataclass(frozen=True)
class QConst:
    """A constant behind a DequantizeLinear: integer values, scale(s), zero point(s), quantisation axis."""

    values: np.ndarray
    scale: np.ndarray
    zero_point: np.ndarray
    axis: int
    name: str = ""        # the stored integer tensor (DequantizeLinear input)
    scale_name: str = ""  # its stored scale


@dataclass(frozen=True)
class QTensor:
    """An int8 activation: ``real = scale * (code - zero_point)``. ``float_name`` is the QDQ tensor it quantises."""

    name: str
    float_name: str
    shape: tuple[int, ...]
    scale: float
    zero_point: int


@dataclass(frozen=True)
class IntOp:
    """One integer op. ``params`` holds ints and int arrays only (weights int8, bias/multipliers int32)."""

    name: str
    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    params: Mapping[str, Any] = field(repr=False)
    rounding: str = "double"


@dataclass(frozen=True)
class IntGraph:
    """Ops in execution order; ``input`` is the float graph input, ``outputs`` are int8 tensors."""

    name: str
    ops: tuple[IntOp, ...]
    tensors: Mapping[str, QTensor]
    input: str
    input_shape: tuple[int, ...]
    outputs: tuple[str, ...]
    rounding: str
    batchable: bool = True  # False when an op moves/indexes axis 0: engines then run image by image

    def roundings(self) -> dict[str, str]:
        """Declared rounding per op name (what every result records)."""
        return {op.name: op.rounding for op in self.ops}

    def dequantize(self, name: str, codes: np.ndarray) -> np.ndarray:
        t = self.tensors[name]
        return (codes.astype(np.float32) - np.float32(t.zero_point)) * np.float32(t.scale)


def save(graph: IntGraph, path: str | Path) -> Path:
    """Write the graph as one .npz: a JSON header (ops, tensors, roundings) plus the arrays."""
    arrays: dict[str, np.ndarray] = {}
    ops = []
    for i, op in enumerate(graph.ops):
        params = {}
        for k, v in op.params.items():
            if isinstance(v, np.ndarray):
                key = f"op{i}.{k}"
                arrays[key] = v
                params[k] = {"array": key}
            else:
                params[k] = v
        ops.append({"name": op.name, "kind": op.kind, "inputs": list(op.inputs), "outputs": list(op.outputs),
                    "params": params, "rounding": op.rounding})
    header = {"format": "npuready-intgraph/1", "name": graph.name, "input": graph.input,
              "input_shape": list(graph.input_shape), "outputs": list(graph.outputs), "rounding": graph.rounding,
              "batchable": graph.batchable,
              "tensors": [{"name": t.name, "float_name": t.float_name, "shape": list(t.shape), "scale": t.scale,
                           "zero_point": t.zero_point} for t in graph.tensors.values()],
              "ops": ops}
    arrays["__header__"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return write_bytes(path, buf.getvalue())


def load(path: str | Path) -> IntGraph:
    try:
        data = np.load(path, allow_pickle=False)
        header = json.loads(bytes(data["__header__"]).decode())
    except (OSError, KeyError, ValueError) as exc:
        raise InputError(f"{path}: not an npuready integer graph ({exc}); write one with engine.intgraph.save") from exc
    if header.get("format") != "npuready-intgraph/1":
        raise InputError(f"{path}: unknown integer graph format {header.get('format')!r}; expected npuready-intgraph/1")
    tensors = {t["name"]: QTensor(t["name"], t["float_name"], tuple(t["shape"]), float(t["scale"]),
                                  int(t["zero_point"])) for t in header["tensors"]}
    ops = []
    for o in header["ops"]:
        params = {k: (data[v["array"]] if isinstance(v, dict) and "array" in v else v) for k, v in o["params"].items()}
        ops.append(IntOp(o["name"], o["kind"], tuple(o["inputs"]), tuple(o["outputs"]), params, o["rounding"]))
    return IntGraph(header["name"], tuple(ops), tensors, header["input"], tuple(header["input_shape"]),
                    tuple(header["outputs"]), header["rounding"], bool(header.get("batchable", True)))
