"""Empirical bias correction (Nagel et al. 2019, sec. 4.2) on a QDQ ONNX model.

Quantising weights (and the activations feeding a layer) shifts the mean of the layer's output:
``E[W_q x_q] - E[W x] != 0`` per output channel. Over a calibration set we measure that shift at the
output of every quantised Conv/Gemm (the QDQ op's float output against the float model's same op,
both before the activation) and subtract it from the layer's int32 bias:
``b_q -= round(shift / bias_scale)``. Layers are corrected in topological order, each measured after
the earlier ones were corrected (a later layer sees the already-corrected inputs). The result is a QDQ
model of the same layout; only int32 bias initializers change.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx

from npuready.errors import InputError
from npuready.quant.qdq_layers import QLayer, channel_means, initializer, qdq_layers, set_initializer


@dataclass(frozen=True)
class BiasFix:
    node: str
    channels: int
    mean_abs_shift_before: float   # mean over channels of |E[y_q] - E[y_f]| before this layer's fix
    mean_abs_shift_after: float    # the same on the final corrected model
    max_abs_change: float          # largest bias change (float units)


@dataclass(frozen=True)
class BiasCorrectionResult:
    model: onnx.ModelProto
    layers: tuple[BiasFix, ...]
    skipped: tuple[str, ...]       # layers without a quantised bias
    samples: int


def correct_bias(float_model: onnx.ModelProto, qdq_model: onnx.ModelProto, calibration,
                 sequential: bool = True) -> BiasCorrectionResult:
    """QDQ model → QDQ model with int32 biases corrected by the measured mean output shift."""
    batches = [np.ascontiguousarray(b, np.float32) for b in calibration]
    if not batches:
        raise InputError("calibration set: empty; bias correction needs at least one input")
    layers: list[QLayer] = qdq_layers(float_model, qdq_model)
    fixable = [q for q in layers if q.bias_q is not None]
    skipped = tuple(q.node for q in layers if q.bias_q is None)
    ref = channel_means(float_model, [q.float_output for q in fixable], batches)
    model = onnx.ModelProto()
    model.CopyFrom(qdq_model)
    before: dict[str, float] = {}
    change: dict[str, float] = {}
    pending = list(fixable)
    while pending:
        group = pending[:1] if sequential else pending
        pending = pending[len(group):]
        got = channel_means(model, [q.output for q in group], batches)
        for q in group:
            shift = got[q.output] - ref[q.float_output]
            before[q.node] = float(np.mean(np.abs(shift)))
            b = initializer(model, q.bias_q).astype(np.int64)
            step = np.rint(shift / np.broadcast_to(q.bias_scale, shift.shape)).astype(np.int64)
            new = np.clip(b - step, np.iinfo(np.int32).min, np.iinfo(np.int32).max).astype(np.int32)
            change[q.node] = float(np.max(np.abs(step * np.broadcast_to(q.bias_scale, shift.shape))))
            set_initializer(model, q.bias_q, new)
    final = channel_means(model, [q.output for q in fixable], batches)
    fixes = tuple(BiasFix(q.node, int(final[q.output].size), before[q.node],
                          float(np.mean(np.abs(final[q.output] - ref[q.float_output]))), change[q.node])
                  for q in fixable)
    return BiasCorrectionResult(model, fixes, skipped, len(batches))
