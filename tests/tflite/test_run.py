import numpy as np
import pytest
from tflite_models import QDQ_MODELS, conv_relu

from tflite_helpers import random_inputs, session
from npuready.errors import InputError
from npuready.tflite import export_float, export_int8_from_qdq, run_litert


def test_returns_every_tensor_and_onnx_layout():
    model = conv_relu()
    x = random_inputs(model, 1)[0]
    got = run_litert(export_float(model), {"input": x})
    assert np.array_equal(got.onnx["input"], x)  # NCHW in, stored NHWC, mapped back
    assert got.tflite["input"].shape == (1, 8, 8, 3)
    assert len(got.tflite) > len(got.onnx)  # weights and bias are returned too
    out = got.mapping.outputs[0]
    ref = session(model).run(None, {"input": x})[0]
    assert np.abs(got.onnx[out] - ref).max() <= 1e-5


def test_optimised_kernels_are_selectable():
    model = conv_relu()
    x = random_inputs(model, 1)[0]
    tfl = export_float(model)
    ref, opt = run_litert(tfl, [x], reference=True), run_litert(tfl, [x], reference=False)
    out = ref.mapping.outputs[0]
    assert np.abs(ref.onnx[out] - opt.onnx[out]).max() <= 1e-5


def test_float_input_to_int8_model_rounds_as_declared(qdq):
    model = QDQ_MODELS["conv_relu"]()
    tfl = export_int8_from_qdq(qdq(model, random_inputs(model, 4)))
    s, z = run_litert(tfl, random_inputs(model, 1)).qparams["input"]
    x = np.full((1, 3, 8, 8), 2.5 * s, np.float32)  # exactly half-way between codes 2 and 3
    away = run_litert(tfl, [x], input_rounding="half_away").onnx["input"]
    even = run_litert(tfl, [x], input_rounding="half_even").onnx["input"]
    assert int(away.reshape(-1)[0]) == z + 3 and int(even.reshape(-1)[0]) == z + 2
    with pytest.raises(InputError, match="input_rounding 'up'"):
        run_litert(tfl, [x], input_rounding="up")


def test_missing_input_is_reported():
    with pytest.raises(InputError, match="input 'input': missing"):
        run_litert(export_float(conv_relu()), {"other": np.zeros((1, 3, 8, 8), np.float32)})
