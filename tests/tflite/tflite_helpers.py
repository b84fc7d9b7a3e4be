"""Shared fixtures for the TFLite exporter tests: onnxruntime sessions and QDQ models."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static


def session(model: onnx.ModelProto, all_outputs: bool = False) -> ort.InferenceSession:
    """An onnxruntime session; ``all_outputs`` also exposes every intermediate float tensor."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    if all_outputs:
        m = onnx.shape_inference.infer_shapes(m)
        have = {o.name for o in m.graph.output}
        for vi in m.graph.value_info:
            if vi.name not in have and vi.type.tensor_type.elem_type == onnx.TensorProto.FLOAT:
                m.graph.output.append(vi)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(m.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def random_inputs(model: onnx.ModelProto, n: int, seed: int = 0) -> list[np.ndarray]:
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(n)]


class _Reader(CalibrationDataReader):
    def __init__(self, name: str, xs):
        self.it = iter([{name: x} for x in xs])

    def get_next(self):
        return next(self.it, None)


def quantize_qdq(model: onnx.ModelProto, xs, tmp_path) -> onnx.ModelProto:
    """onnxruntime quantize_static in the format issue #6 uses (QDQ, int8, per-channel symmetric weights)."""
    src, dst = tmp_path / "float.onnx", tmp_path / "qdq.onnx"
    onnx.save(model, src)
    quantize_static(str(src), str(dst), _Reader(model.graph.input[0].name, xs), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8, per_channel=True,
                    extra_options={"WeightSymmetric": True, "ActivationSymmetric": False})
    return onnx.load(dst)


@pytest.fixture
def qdq(tmp_path):
    return lambda model, xs: quantize_qdq(model, xs, tmp_path)
