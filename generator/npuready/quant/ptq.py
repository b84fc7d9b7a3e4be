"""Post-training quantisation: our observers choose activation ranges, onnxruntime writes the QDQ model.

``quantize_model(model, batches, method)`` returns a QDQ ``ModelProto`` with int8 (or uint8)
asymmetric per-tensor activations and int8 symmetric weights (per-channel by default), int32 bias.
The ranges come from ``quant.observers`` and are handed to ``onnxruntime.quantization.quantize_static``
as TensorQuantOverrides (rmin/rmax), so the QDQ layout is exactly onnxruntime's. ``baseline_model``
is plain ``quantize_static`` (its own MinMax calibration) on the same calibration set.

Before calibration both rewrite HardSigmoid into the int8 builtins a TFLite converter emits for it
(``quant.decompose_hardsigmoid``: Add with a fused ReLU6 and a Mul), so the integer engine, LiteRT and an
NPU compiler such as Vela run the same int8 Add/Mul kernels instead of a lookup table read by GATHER.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import onnx

from npuready.errors import InputError
from npuready.quant.decompose_hardsigmoid import decompose_hardsigmoid
from npuready.quant.observers import OBSERVERS
from npuready.quant.prepare import fold_constants
from npuready.quant.primitive_layernorm import rewrite_primitive_layernorm
from npuready.quant.quiet import captured_logs, forward
from npuready.quant.ranges import activation_ranges

ACTIVATION_TYPES = ("int8", "uint8")
# Beyond onnxruntime's default op types (its QLinear and QDQ registries): Sub, which the integer engine and
# TFLite run like Add; without it a Sub whose output nothing quantised consumes (YOLO's box decode ending an
# NPU body) is left in float and the integer export refuses the model. PRelu and Div, which neither registry
# holds: without them a PRelu's slope and output (MTCNN) or a Div by a constant feeding a MaxPool (PaddleOCR's
# hard-swish) stay float and the integer export refuses the model.
EXTRA_OP_TYPES = ("Sub", "PRelu", "Div")


def input_read_only_by_latent_ops(model: onnx.ModelProto) -> bool:
    """True when every reader of the graph input is an op onnxruntime quantises only after its input is
    (Slice, Transpose, Reshape, … — YOLOX's space-to-depth Slices): left alone, the input stays float and the
    integer export has nothing to start from, so ``ForceQuantizeNoInputCheck`` is set."""
    from onnxruntime.quantization.operators.direct_q8 import QDQDirect8BitOp
    from onnxruntime.quantization.registry import QDQRegistry

    latent = {op for op, cls in QDQRegistry.items() if cls is QDQDirect8BitOp}
    name = model.graph.input[0].name
    readers = [n.op_type for n in model.graph.node if name in n.input]
    return bool(readers) and all(op in latent for op in readers)


def op_types_to_quantize() -> list[str]:
    from onnxruntime.quantization.registry import QDQRegistry, QLinearOpsRegistry

    return sorted(set(QLinearOpsRegistry) | set(QDQRegistry) | set(EXTRA_OP_TYPES))


class _Reader:
    """onnxruntime CalibrationDataReader over a list of input arrays."""

    def __init__(self, name: str, batches):
        self.name, self.batches, self.i = name, list(batches), 0

    def get_next(self):
        if self.i >= len(self.batches):
            return None
        self.i += 1
        return {self.name: self.batches[self.i - 1]}

    def rewind(self):
        self.i = 0


def _as_batches(calibration) -> list[np.ndarray]:
    arr = [np.ascontiguousarray(b, dtype=np.float32) for b in calibration]
    if not arr:
        raise InputError("calibration set: empty; give at least one input")
    return arr


def _prepared(model: onnx.ModelProto | str | Path) -> onnx.ModelProto:
    """The float model (loaded safely when given a path) with constants folded (``prepare.fold_constants``),
    HardSigmoid lowered as a converter lowers it (``decompose_hardsigmoid``) and LayerNorms written as
    primitives put in the int8 form (``primitive_layernorm``)."""
    if not isinstance(model, onnx.ModelProto):
        from npuready.graph import load as load_graph

        model = load_graph(model).model
    return rewrite_primitive_layernorm(fold_constants(decompose_hardsigmoid(model)[0]))[0]


def _quantize(model: onnx.ModelProto, batches, per_channel: bool, activation_type: str, overrides) -> onnx.ModelProto:
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    if activation_type not in ACTIVATION_TYPES:
        raise InputError(f"activation type {activation_type!r}: use one of {ACTIVATION_TYPES}")
    act = QuantType.QInt8 if activation_type == "int8" else QuantType.QUInt8
    extra = {"WeightSymmetric": True, "ActivationSymmetric": False}
    if overrides:
        extra["TensorQuantOverrides"] = overrides
    if input_read_only_by_latent_ops(model):
        extra["ForceQuantizeNoInputCheck"] = True
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "float.onnx", Path(tmp) / "qdq.onnx"
        onnx.save(model, src)
        name = model.graph.input[0].name
        with captured_logs() as records:
            quantize_static(str(src), str(dst), _Reader(name, batches), quant_format=QuantFormat.QDQ,
                            activation_type=act, weight_type=QuantType.QInt8, per_channel=per_channel,
                            calibrate_method=CalibrationMethod.MinMax, extra_options=extra,
                            op_types_to_quantize=op_types_to_quantize())
        forward(records, "onnxruntime quantization")
        return onnx.load(dst)


def quantize_model(model: onnx.ModelProto | str | Path, calibration, method: str = "minmax",
                   per_channel: bool = True, activation_type: str = "int8") -> onnx.ModelProto:
    """Float ONNX → QDQ ONNX with activation ranges chosen by observer ``method``."""
    if method not in OBSERVERS:
        raise InputError(f"method {method!r}: unknown; use one of {sorted(OBSERVERS)}")
    model = _prepared(model)
    batches = _as_batches(calibration)
    ranges = activation_ranges(model, batches, method)
    overrides = {n: [{"rmin": np.float32(lo), "rmax": np.float32(hi)}] for n, (lo, hi) in ranges.items()}
    return _quantize(model, batches, per_channel, activation_type, overrides)


def baseline_model(model: onnx.ModelProto | str | Path, calibration, per_channel: bool = True,
                   activation_type: str = "int8") -> onnx.ModelProto:
    """onnxruntime's own quantize_static (MinMax) on the same calibration set: the baseline."""
    return _quantize(_prepared(model), _as_batches(calibration), per_channel, activation_type, None)
