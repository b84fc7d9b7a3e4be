"""Every named recipe writes a runnable QDQ model and reports what it did."""
import numpy as np
import pytest

from npuready.quant.recipes import RECIPES

from small_models import calibration, chain, run

DETAIL_KEYS = {
    "ort-quantize_static": set(), "minmax": set(), "percentile": set(), "mse": set(), "entropy": set(),
    "minmax-per-tensor": set(), "cle+minmax-per-tensor": {"cle"}, "cle+minmax": {"cle"},
    "minmax-per-tensor+bias-correction": {"bias_correction"},
    "cle+minmax-per-tensor+bias-correction": {"cle", "bias_correction"},
    "minmax+bias-correction": {"bias_correction"}, "adaround": {"adaround"},
}


def test_registry_names():
    assert list(RECIPES) == list(DETAIL_KEYS)
    assert {r.weights for r in RECIPES.values()} == {"per-channel", "per-tensor"}


@pytest.mark.parametrize("name", list(DETAIL_KEYS))
def test_recipe_builds_runnable_qdq(name):
    if name == "adaround":
        pytest.importorskip("torch")
    m, calib = chain(), calibration(8)
    q, details = RECIPES[name].build(m, calib, adaround_iterations=5, adaround_images=4)
    assert set(details) == DETAIL_KEYS[name]
    assert {"QuantizeLinear", "DequantizeLinear"} <= {n.op_type for n in q.graph.node}
    out = run(q, calib[:2])
    assert out.shape == (2, 10) and np.isfinite(out).all()
