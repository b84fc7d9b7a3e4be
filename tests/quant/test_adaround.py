"""AdaRound learns per-weight rounding that lowers layer reconstruction error; integers land in the QDQ model."""
import numpy as np
import pytest
from onnx import numpy_helper

from npuready.errors import InputError
from npuready.quant.adaround import adaround, to_float_model
from npuready.quant.ptq import quantize_model

from small_models import calibration, chain

pytest.importorskip("torch")


def _inits(m):
    return {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}


@pytest.fixture(scope="module")
def setup():
    m = chain()
    calib = calibration(32)
    q = quantize_model(m, calib, "minmax")
    return m, calib, q, adaround(m, q, calib, iterations=60, batch=16)


def test_reconstruction_error_drops(setup):
    *_, res = setup
    assert [r.node for r in res.layers] == ["conv1", "conv2", "conv3", "conv4", "conv5", "fc"]
    assert any(r.mse_adaround < r.mse_nearest for r in res.layers)
    assert sum(r.mse_adaround for r in res.layers) < sum(r.mse_nearest for r in res.layers)
    assert sum(r.flipped for r in res.layers) > 0


def test_only_int8_weights_change_and_stay_within_floor_ceil(setup):
    m, _, q, res = setup
    old, new, w = _inits(q), _inits(res.model), _inits(m)
    changed = sorted(n for n in old if not np.array_equal(old[n], new[n]))
    assert changed and all(new[n].dtype == np.int8 and n.endswith("_quantized") for n in changed)
    for name in changed:
        scale = old[name.replace("_quantized", "_scale")].reshape(-1, *[1] * (new[name].ndim - 1))
        ratio = w[name.replace("_quantized", "")] / scale
        assert np.all((new[name] == np.floor(ratio)) | (new[name] == np.ceil(ratio)) | (np.abs(new[name]) == 127))


def test_float_writeback_requantises_to_the_learned_integers(setup):
    m, calib, _, res = setup
    again = _inits(quantize_model(to_float_model(m, res.model), calib, "minmax"))
    learned = _inits(res.model)
    weights = [n for n in learned if n.startswith("w") and n.endswith("_quantized")]
    assert weights and all(np.array_equal(again[n], learned[n]) for n in weights)


def test_bad_arguments_are_input_errors():
    m = chain()
    with pytest.raises(InputError, match="empty"):
        adaround(m, m, [])
    with pytest.raises(InputError, match="iterations"):
        adaround(m, m, calibration(2), iterations=0)
