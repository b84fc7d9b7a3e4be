"""PTQ writes QDQ ONNX that onnxruntime runs; minmax reproduces onnxruntime's baseline exactly."""
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
import models  # noqa: E402

from npuready.errors import InputError  # noqa: E402
from npuready.quant.ptq import baseline_model, quantize_model  # noqa: E402


def _scales(m):
    return {t.name: numpy_helper.to_array(t).tolist() for t in m.graph.initializer if t.name.endswith("_scale")}


@pytest.fixture(scope="module")
def calib():
    return list(models.calibration(8))


def test_minmax_equals_onnxruntime_baseline(calib):
    m = models.cnn()
    ours, base = quantize_model(m, calib, "minmax"), baseline_model(m, calib)
    assert _scales(ours) == _scales(base)


@pytest.mark.parametrize("method", ["percentile", "mse", "entropy"])
def test_every_method_writes_a_runnable_qdq_model(calib, method):
    q = quantize_model(models.cnn(), calib, method)
    ops = {n.op_type for n in q.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv", "Gemm"} <= ops
    s = ort.InferenceSession(q.SerializeToString(), providers=["CPUExecutionProvider"])
    out = s.run(None, {"x": calib[0]})[0]
    assert out.shape == (1, 10) and np.isfinite(out).all()


def test_per_tensor_weights_have_one_scale(calib):
    q = quantize_model(models.cnn(), calib, "minmax", per_channel=False)
    assert np.asarray(_scales(q)["w1_scale"]).size == 1
    q = quantize_model(models.cnn(), calib, "minmax", per_channel=True)
    assert np.asarray(_scales(q)["w1_scale"]).size == 8


def test_uint8_activations(calib):
    q = quantize_model(models.cnn(), calib, "minmax", activation_type="uint8")
    zps = [t for t in q.graph.initializer if t.name == "x_zero_point"]
    assert zps[0].data_type == onnx.TensorProto.UINT8


def test_bad_method_and_empty_calibration_are_input_errors(calib):
    with pytest.raises(InputError, match="unknown"):
        quantize_model(models.cnn(), calib, "magic")
    with pytest.raises(InputError, match="empty"):
        quantize_model(models.cnn(), [], "minmax")
