"""Cross-layer equalisation keeps the float function and evens out per-channel weight ranges."""
import numpy as np
from onnx import numpy_helper

from npuready.quant.cle import equalize
from npuready.quant.ptq import quantize_model

from small_models import calibration, chain, run


def test_outputs_unchanged_within_1e_4():
    m = chain()
    res = equalize(m)
    x = calibration(8)
    assert np.max(np.abs(run(res.model, x) - run(m, x))) <= 1e-4


def test_pairs_equalised_and_skipped_with_reasons():
    res = equalize(chain())
    by_first = {p.first: p for p in res.pairs}
    assert [p.first for p in res.pairs if p.equalised] == ["conv1", "conv2", "conv3", "conv5"]
    assert by_first["conv1"].second == "conv2" and by_first["conv1"].between == ("Relu", "MaxPool")
    assert by_first["conv3"].second == "conv4"
    assert by_first["conv4"].between == ("Clip",) and "Clip" in by_first["conv4"].reason
    assert by_first["conv5"].second == "fc" and by_first["conv5"].between == ("GlobalAveragePool", "Flatten")


def test_ranges_become_even():
    m = chain()
    res = equalize(m)
    w = {t.name: numpy_helper.to_array(t) for t in res.model.graph.initializer}
    r1 = np.abs(w["w1"].reshape(8, -1)).max(1)
    r2 = np.abs(w["w2"]).max(axis=(0, 2, 3))
    np.testing.assert_allclose(r1, r2, rtol=1e-4)  # both sides of the pair share sqrt(r1 r2)
    conv1 = next(p for p in res.pairs if p.first == "conv1")
    assert conv1.spread_after > conv1.spread_before


def test_cle_reduces_per_tensor_quantisation_error():
    m = chain()
    calib = calibration(16)
    ref = run(m, calib)
    plain = quantize_model(m, calib, "minmax", per_channel=False)
    cle = quantize_model(equalize(m).model, calib, "minmax", per_channel=False)
    err_plain = np.mean((run(plain, calib) - ref) ** 2)
    err_cle = np.mean((run(cle, calib) - ref) ** 2)
    assert err_cle < err_plain


def test_shared_bias_gets_a_private_copy():
    m = chain()
    conv3 = next(n for n in m.graph.node if n.name == "conv3")
    conv3.input[2] = "b2"  # conv2 and conv3 (both 16 channels) now read one bias, as torch's dedup does
    res = equalize(m)
    x = calibration(4)
    assert np.max(np.abs(run(res.model, x) - run(m, x))) <= 1e-4
    assert [p.first for p in res.pairs if p.equalised] == ["conv1", "conv2", "conv3", "conv5"]
