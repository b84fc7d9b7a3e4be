"""Corruptions of a valid QDQ model, one per way a stored file can break (the gate must fail every one).

Each mutation takes the model and returns (mutated copy, name of the tensor it breaks). The names refer
to the tinycnn zoo model quantised by ``npuready.quant.ptq`` (onnxruntime's QDQ naming).
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper

ACT_SCALE = "/features/features.6/Relu_output_0_scale"
ACT_ZERO_POINT = "/features/features.2/Relu_output_0_zero_point"
WEIGHTS = "onnx::Conv_38_quantized"
WEIGHT_SCALE = "onnx::Conv_38_scale"
WEIGHT_ZERO_POINT = "onnx::Conv_38_zero_point"
BIAS = "classifier.1.bias_quantized"
BIAS_SCALE = "classifier.1.bias_quantized_scale"
REMOVED = "/features/features.6/Relu_output_0"


def _copy(m: onnx.ModelProto) -> onnx.ModelProto:
    out = onnx.ModelProto()
    out.CopyFrom(m)
    return out


def _edit(m: onnx.ModelProto, name: str, fn) -> onnx.ModelProto:
    m = _copy(m)
    init = next(i for i in m.graph.initializer if i.name == name)
    init.CopyFrom(numpy_helper.from_array(fn(numpy_helper.to_array(init).copy()), name))
    return m


def _first(value):
    def fn(a):
        a.reshape(-1)[0] = value
        return a
    return fn


def _times(k):
    return lambda a: (a * np.float32(k)).astype(a.dtype)


def remove_quantize(m: onnx.ModelProto, tensor: str = REMOVED) -> onnx.ModelProto:
    """Drop the QuantizeLinear → DequantizeLinear pair on ``tensor``: its consumers read the float tensor."""
    m = _copy(m)
    q = next(n for n in m.graph.node if n.op_type == "QuantizeLinear" and n.input[0] == tensor)
    dq = next(n for n in m.graph.node if n.op_type == "DequantizeLinear" and n.input[0] == q.output[0])
    for n in m.graph.node:
        for i, name in enumerate(n.input):
            if name == dq.output[0]:
                n.input[i] = tensor
    keep = [n for n in m.graph.node if n is not q and n is not dq]
    del m.graph.node[:]
    m.graph.node.extend(keep)
    return m


def widen_zero_point(m: onnx.ModelProto, name: str = ACT_ZERO_POINT, value: int = 300) -> onnx.ModelProto:
    """An activation zero point outside the int8 range (stored as int16 so it can hold 300)."""
    return _edit(m, name, lambda a: np.full(a.shape, value, np.int16))


MUTATIONS = {
    "bias scale NaN": (lambda m: _edit(m, BIAS_SCALE, _first(np.nan)), BIAS_SCALE),
    "bias scale 1e30": (lambda m: _edit(m, BIAS_SCALE, _first(1e30)), BIAS),
    "bias of the wrong scale (x4)": (lambda m: _edit(m, BIAS_SCALE, _times(4)), BIAS),
    "activation scale NaN": (lambda m: _edit(m, ACT_SCALE, _first(np.nan)), ACT_SCALE),
    "activation scale 0": (lambda m: _edit(m, ACT_SCALE, _first(0.0)), ACT_SCALE),
    "activation scale 1e30": (lambda m: _edit(m, ACT_SCALE, _first(1e30)), "/features/features.6/Relu_output_0"),
    "weight scale 0": (lambda m: _edit(m, WEIGHT_SCALE, _first(0.0)), WEIGHT_SCALE),
    "weight scales 1e30": (lambda m: _edit(m, WEIGHT_SCALE, _times(1e30)), WEIGHTS),
    "activation zero point 300 (int16)": (widen_zero_point, ACT_ZERO_POINT),
    "weight zero point 5": (lambda m: _edit(m, WEIGHT_ZERO_POINT, lambda a: np.full_like(a, 5)), WEIGHTS),
    "weights swapped (output channels reversed)": (lambda m: _edit(m, WEIGHTS, lambda a: a[::-1].copy()), WEIGHTS),
    "QuantizeLinear removed": (remove_quantize, REMOVED),
}
