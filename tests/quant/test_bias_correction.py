"""Empirical bias correction shrinks the mean output error of a quantised model."""
import numpy as np
import pytest
from onnx import numpy_helper

from npuready.errors import InputError
from npuready.quant.bias_correction import correct_bias
from npuready.quant.ptq import quantize_model
from npuready.quant.qdq_layers import qdq_layers

from small_models import calibration, chain, run


@pytest.fixture(scope="module")
def setup():
    m = chain()
    calib = calibration(32)
    q = quantize_model(m, calib, "minmax", per_channel=False)
    return m, calib, q, correct_bias(m, q, calib)


def test_layers_matched_in_order(setup):
    m, _, q, _ = setup
    assert [layer.weight for layer in qdq_layers(m, q)] == ["w1", "w2", "w3", "w4", "w5", "wf"]


def test_every_layer_mean_shift_shrinks(setup):
    _, _, _, res = setup
    assert [f.node for f in res.layers] == ["conv1", "conv2", "conv3", "conv4", "conv5", "fc"]
    for f in res.layers:
        assert f.mean_abs_shift_after < f.mean_abs_shift_before, f


def test_mean_output_error_shrinks_on_held_out_data(setup):
    m, _, q, res = setup
    held = calibration(32, seed=99)
    ref = run(m, held)
    before = np.abs(np.mean(run(q, held) - ref, axis=0)).mean()
    after = np.abs(np.mean(run(res.model, held) - ref, axis=0)).mean()
    assert after < before


def test_only_int32_biases_change(setup):
    _, _, q, res = setup
    old = {t.name: numpy_helper.to_array(t) for t in q.graph.initializer}
    new = {t.name: numpy_helper.to_array(t) for t in res.model.graph.initializer}
    changed = sorted(n for n in old if not np.array_equal(old[n], new[n]))
    assert changed and all(n.endswith("_quantized") and new[n].dtype == np.int32 for n in changed)


def test_empty_calibration_is_an_input_error():
    with pytest.raises(InputError, match="empty"):
        correct_bias(chain(), chain(), [])
