"""Which TFLite tensor holds which ONNX tensor, and in which axis order.

Every exported .tflite carries this map as JSON in its flatbuffer metadata entry
``npuready.onnx_map`` so that the file is self-describing (``read_tensor_map(tflite_bytes)``).

``perm`` is the TFLite axis order written in ONNX axes: TFLite axis ``i`` holds ONNX axis
``perm[i]``. So ``tflite_array = onnx_array.transpose(perm)`` and
``onnx_array = tflite_array.transpose(argsort(perm))``. A 4-D activation in NHWC has
``perm == (0, 2, 3, 1)``; everything else normally has the identity.

``fused`` lists ONNX tensors that have no TFLite tensor because their producer was folded into
the next op (Conv→BatchNormalization, Conv/Gemm/Add→Relu/Clip): ``fused[name]`` is the ONNX tensor
that holds the combined result. ``adjustments`` lists every place the export changed the integer
semantics of the ONNX graph (an inserted requantize, a recomputed bias); an integer engine that wants
bit-identity with LiteRT must mirror them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
from ai_edge_litert.tools import flatbuffer_utils

METADATA_KEY = "npuready.onnx_map"


@dataclass(frozen=True)
class TensorRef:
    onnx_name: str
    tflite_name: str
    tflite_index: int
    perm: tuple[int, ...]

    def to_onnx(self, array: np.ndarray) -> np.ndarray:
        """A TFLite-layout array in the ONNX axis order."""
        if len(self.perm) != array.ndim or self.perm == tuple(range(array.ndim)):
            return array
        return np.transpose(array, np.argsort(self.perm))

    def to_tflite(self, array: np.ndarray) -> np.ndarray:
        """An ONNX-layout array in the TFLite axis order."""
        if len(self.perm) != array.ndim or self.perm == tuple(range(array.ndim)):
            return array
        return np.transpose(array, self.perm)


@dataclass(frozen=True)
class TensorMap:
    tensors: dict[str, TensorRef]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    fused: dict[str, str] = field(default_factory=dict)
    adjustments: tuple[str, ...] = ()

    def to_json(self) -> str:
        return json.dumps({
            "tensors": {k: [r.tflite_name, r.tflite_index, list(r.perm)] for k, r in self.tensors.items()},
            "inputs": list(self.inputs), "outputs": list(self.outputs),
            "fused": self.fused, "adjustments": list(self.adjustments),
        }, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "TensorMap":
        d = json.loads(text)
        tensors = {k: TensorRef(k, v[0], int(v[1]), tuple(int(p) for p in v[2])) for k, v in d["tensors"].items()}
        return cls(tensors, tuple(d["inputs"]), tuple(d["outputs"]), dict(d["fused"]), tuple(d["adjustments"]))


def _text(name) -> str:
    """A flatbuffer string field (bytes or str) as str."""
    return name.decode() if isinstance(name, bytes) else name


def map_buffer(model) -> int | None:
    """Index of the buffer holding the embedded map in a flatbuffer ``ModelT``, or None."""
    for md in model.metadata or []:
        if _text(md.name) == METADATA_KEY:
            return md.buffer
    return None


def read_tensor_map(tflite_bytes: bytes) -> TensorMap:
    """The ONNX ↔ TFLite map embedded by the exporter; indices re-resolved by tensor name.

    Re-resolving by name keeps the map valid after TFLite's quantizer rewrote the model.
    """
    model = flatbuffer_utils.convert_bytearray_to_object(bytearray(tflite_bytes))
    buf = map_buffer(model)
    if buf is None:
        raise KeyError(f"{METADATA_KEY}: not present; the file was not written by npuready.tflite")
    tmap = TensorMap.from_json(bytes(model.buffers[buf].data).decode("utf-8"))
    names = {}
    for i, t in enumerate(model.subgraphs[0].tensors):
        names.setdefault(_text(t.name), i)
    tensors = {k: TensorRef(k, r.tflite_name, names.get(r.tflite_name, r.tflite_index), r.perm)
               for k, r in tmap.tensors.items()}
    return TensorMap(tensors, tmap.inputs, tmap.outputs, tmap.fused, tmap.adjustments)
