"""Run an exported .tflite in LiteRT's Interpreter and return every tensor.

``run_litert(tflite_bytes, inputs, reference=True)`` uses the reference kernels (BUILTIN_REF) and
``experimental_preserve_all_tensors`` so intermediate tensors stay readable. ``inputs`` maps ONNX
input names (or is a list in input order) to arrays in ONNX layout (NCHW); they are transposed to the
TFLite layout with the embedded map. A float array fed to an int8 input is quantized with the input's
scale/zero point, rounding ``input_rounding``: "half_away" (default; TFLite's QUANTIZE kernel and the
npuready integer engine's input op) or "half_even" (ONNX QuantizeLinear). Feed int8 codes to skip it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

from npuready.errors import InputError
from npuready.tflite.tensor_map import TensorMap, read_tensor_map


@dataclass(frozen=True)
class LiteRTRun:
    """``tflite``: every tensor by TFLite name (TFLite layout, raw dtype); ``onnx``: every mapped ONNX
    tensor in ONNX layout (raw dtype: int8 in quantized models); ``qparams``: TFLite name → (scale,
    zero point) for per-tensor quantized tensors."""

    tflite: dict[str, np.ndarray]
    onnx: dict[str, np.ndarray]
    qparams: dict[str, tuple[float, int]]
    mapping: TensorMap

    def dequantized(self, onnx_name: str) -> np.ndarray:
        ref = self.mapping.tensors[onnx_name]
        arr = self.onnx[onnx_name]
        if ref.tflite_name in self.qparams and arr.dtype != np.float32:
            s, z = self.qparams[ref.tflite_name]
            return (arr.astype(np.float32) - z) * np.float32(s)
        return arr


def make_interpreter(tflite_bytes: bytes, resolver: str = "BUILTIN_REF") -> Interpreter:
    """One-thread interpreter keeping every tensor; ``resolver`` names an ``OpResolverType`` member."""
    interp = Interpreter(model_content=bytes(tflite_bytes),
                         experimental_op_resolver_type=getattr(OpResolverType, resolver),
                         experimental_preserve_all_tensors=True, num_threads=1)
    interp.allocate_tensors()
    return interp


def _round(x: np.ndarray, mode: str) -> np.ndarray:
    if mode == "half_even":
        return np.round(x)
    if mode == "half_away":
        return np.sign(x) * np.floor(np.abs(x) + 0.5)
    raise InputError(f"input_rounding {mode!r}: unknown; use 'half_away' or 'half_even'")


def feed(interp: Interpreter, mapping: TensorMap, inputs, input_rounding: str = "half_away") -> None:
    if not isinstance(inputs, dict):
        inputs = dict(zip(mapping.inputs, inputs if isinstance(inputs, (list, tuple)) else [inputs]))
    details = {d["index"]: d for d in interp.get_input_details()}
    for name in mapping.inputs:
        if name not in inputs:
            raise InputError(f"input {name!r}: missing; the model needs {list(mapping.inputs)}")
        ref = mapping.tensors[name]
        arr = ref.to_tflite(np.asarray(inputs[name]))
        d = details[ref.tflite_index]
        if d["dtype"] == np.int8 and arr.dtype != np.int8:
            s, z = d["quantization"]
            q = _round(arr.astype(np.float32) / np.float32(s), input_rounding) + z
            arr = np.clip(q, -128, 127).astype(np.int8)
        interp.set_tensor(ref.tflite_index, np.ascontiguousarray(arr.astype(d["dtype"])))


def run_litert(tflite_bytes: bytes, inputs, reference: bool = True, input_rounding: str = "half_away") -> LiteRTRun:
    """Run once (batch 1) and return every tensor; ``reference=False`` uses the optimised kernels."""
    mapping = read_tensor_map(tflite_bytes)
    interp = make_interpreter(tflite_bytes, "BUILTIN_REF" if reference else "AUTO")
    feed(interp, mapping, inputs, input_rounding)
    interp.invoke()
    tensors, qparams = {}, {}
    for d in interp.get_tensor_details():
        try:
            value = interp.get_tensor(d["index"])
        except ValueError:
            continue  # tensors without data (e.g. optional inputs)
        tensors[d["name"]] = np.array(value)
        s, z = d["quantization"]
        if s:
            qparams[d["name"]] = (float(s), int(z))
    onnx = {name: ref.to_onnx(tensors[ref.tflite_name]) for name, ref in mapping.tensors.items()
            if ref.tflite_name in tensors}
    return LiteRTRun(tensors, onnx, qparams, mapping)
