"""Append-only builder for one TFLite flatbuffer (a single subgraph) on ai-edge-litert's object API.

The builder knows nothing about ONNX: it keeps tensors, constant buffers, operator codes and
operators, and serialises them with ``flatbuffer_utils.convert_object_to_bytearray``. Tensor names
are made unique (a ``#n`` suffix) because the ONNX ↔ TFLite mapping is keyed by name.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ai_edge_litert import schema_py_generated as fb
from ai_edge_litert.tools import flatbuffer_utils

TYPE_OF = {
    "float32": fb.TensorType.FLOAT32,
    "int8": fb.TensorType.INT8,
    "int32": fb.TensorType.INT32,
    "int64": fb.TensorType.INT64,
}

# Operator versions written for int8 kernels (float kernels are version 1). The interpreter's
# resolver accepts any registered version; Vela reads the version but does not depend on it.
INT8_VERSION = {
    "CONV_2D": 3, "DEPTHWISE_CONV_2D": 3, "FULLY_CONNECTED": 4, "ADD": 2, "SUB": 2, "MUL": 2,
    "CONCATENATION": 2, "MAX_POOL_2D": 2, "AVERAGE_POOL_2D": 2, "MEAN": 2, "SOFTMAX": 2,
    "LOGISTIC": 2, "TRANSPOSE": 2, "QUANTIZE": 2, "PAD": 2, "PADV2": 2, "SPLIT": 2, "RELU": 2,
    "RELU6": 2, "BATCH_MATMUL": 1, "HARD_SWISH": 1, "RESHAPE": 1, "REDUCE_MAX": 2,
    "MAXIMUM": 2, "MINIMUM": 2, "TANH": 2, "LEAKY_RELU": 2, "GATHER": 2, "STRIDED_SLICE": 2,
    "RESIZE_NEAREST_NEIGHBOR": 2, "RESIZE_BILINEAR": 3, "TRANSPOSE_CONV": 3,
}


@dataclass(frozen=True)
class QParams:
    """Affine quantization of one tensor: real = scale * (q - zero_point), per ``axis`` when sized > 1."""

    scale: tuple[float, ...]
    zero_point: tuple[int, ...]
    axis: int = 0

    @classmethod
    def of(cls, scale, zero_point, axis: int = 0) -> "QParams":
        s = tuple(float(v) for v in np.atleast_1d(np.asarray(scale, dtype=np.float64)))
        z = tuple(int(v) for v in np.atleast_1d(np.asarray(zero_point, dtype=np.int64)))
        if len(z) == 1 and len(s) > 1:
            z = z * len(s)
        return cls(s, z, axis)

    @property
    def per_channel(self) -> bool:
        return len(self.scale) > 1

    def same_as(self, other: "QParams | None") -> bool:
        """Equal as the int8 kernels see them: zero points and float32 scales bit for bit (CONCATENATION
        refuses inputs whose float32 scales differ in the last bit; the integer engine then rescales too)."""
        return other is not None and self.zero_point == other.zero_point and np.array_equal(
            np.asarray(self.scale, np.float32), np.asarray(other.scale, np.float32))


class ModelBuilder:
    """Collects tensors and operators; ``finish`` returns the .tflite bytes."""

    def __init__(self, description: str = "npuready"):
        self.description = description
        self.tensors: list[fb.TensorT] = []
        self.buffers: list[fb.BufferT] = [fb.BufferT()]  # buffer 0 is the empty sentinel
        self.opcodes: dict[tuple[int, int], int] = {}
        self.operators: list[fb.OperatorT] = []
        self.names: set[str] = set()

    # ----- tensors -----------------------------------------------------------------------------
    def unique(self, name: str) -> str:
        if name not in self.names:
            self.names.add(name)
            return name
        k = 1
        while f"{name}#{k}" in self.names:
            k += 1
        self.names.add(f"{name}#{k}")
        return f"{name}#{k}"

    def tensor(self, name: str, shape, dtype: str, data: np.ndarray | None = None,
               qparams: QParams | None = None) -> int:
        t = fb.TensorT()
        t.name = self.unique(name)
        t.shape = np.asarray([int(d) for d in shape], dtype=np.int32)
        t.type = TYPE_OF[dtype]
        if data is not None:
            arr = np.ascontiguousarray(np.asarray(data, dtype=dtype).reshape([int(d) for d in shape]))
            buf = fb.BufferT()
            buf.data = np.frombuffer(arr.tobytes(), dtype=np.uint8)
            self.buffers.append(buf)
            t.buffer = len(self.buffers) - 1
        else:
            t.buffer = 0
        if qparams is not None:
            q = fb.QuantizationParametersT()
            q.scale = [float(s) for s in qparams.scale]
            q.zeroPoint = [int(z) for z in qparams.zero_point]
            q.quantizedDimension = int(qparams.axis)
            t.quantization = q
        self.tensors.append(t)
        return len(self.tensors) - 1

    def name_of(self, index: int) -> str:
        return self.tensors[index].name

    def shape_of(self, index: int) -> tuple[int, ...]:
        return tuple(int(d) for d in self.tensors[index].shape)

    # ----- operators ---------------------------------------------------------------------------
    def op(self, opname: str, inputs, outputs, options=None, version: int = 1) -> None:
        code = getattr(fb.BuiltinOperator, opname)
        key = (code, version)
        if key not in self.opcodes:
            self.opcodes[key] = len(self.opcodes)  # the OperatorCodeT is written by finish
        o = fb.OperatorT()
        o.opcodeIndex = self.opcodes[key]
        o.inputs = [int(i) for i in inputs]
        o.outputs = [int(i) for i in outputs]
        if options is not None:
            o.builtinOptionsType = getattr(fb.BuiltinOptions, type(options).__name__[:-1])
            o.builtinOptions = options
        self.operators.append(o)

    # ----- output ------------------------------------------------------------------------------
    def finish(self, inputs: list[int], outputs: list[int], metadata: dict[str, bytes]) -> bytes:
        model = fb.ModelT()
        model.version = 3
        model.description = self.description
        codes = [None] * len(self.opcodes)
        for (code, version), idx in self.opcodes.items():
            oc = fb.OperatorCodeT()
            oc.builtinCode = code
            oc.deprecatedBuiltinCode = min(code, 127)
            oc.version = version
            codes[idx] = oc
        model.operatorCodes = codes
        sg = fb.SubGraphT()
        sg.tensors = self.tensors
        sg.inputs = [int(i) for i in inputs]
        sg.outputs = [int(i) for i in outputs]
        sg.operators = self.operators
        sg.name = "main"
        model.subgraphs = [sg]
        buffers = list(self.buffers)
        model.metadata = []
        for key, blob in metadata.items():
            buf = fb.BufferT()
            buf.data = np.frombuffer(blob, dtype=np.uint8)
            buffers.append(buf)
            md = fb.MetadataT()
            md.name = key
            md.buffer = len(buffers) - 1
            model.metadata.append(md)
        model.buffers = buffers
        return bytes(flatbuffer_utils.convert_object_to_bytearray(model))
