"""The sensitivity ranking holds on images it never saw: each of the top 3 layers of a trained model, kept
float alone, recovers on fresh test images at least the table's gain, within the paired sampling noise."""
from __future__ import annotations

import numpy as np
import pytest

from npuready.quant.inputs import load_inputs
from npuready.quant.keep_float import keep_float
from npuready.quant.zoo_qdq import quantize_zoo
from npuready.sensitivity.measure import measure_sensitivity
from npuready.sensitivity.run import outputs

MODEL = "mobilenetv2_050_fm64"


def _agree(fm_out, model, x) -> np.ndarray:
    return (outputs(model, x)[0].argmax(1) == fm_out.argmax(1)).astype(np.float64)


@pytest.mark.slow
def test_each_top_layer_kept_float_recovers_what_the_table_says():
    fm, q = quantize_zoo(MODEL, "minmax", 128, 0)
    shape = tuple(d.dim_value or 1 for d in fm.graph.input[0].type.tensor_type.shape.dim)
    held = load_inputs("fashion-mnist:train", 2000, shape, seed=3).x[-120:]
    table = measure_sensitivity(fm, q, held, task="classification", unrounded=False)
    assert table.total_loss > 0.05  # the model loses agreement in INT8 (else there is nothing to rank)
    fresh = load_inputs("fashion-mnist:test", 300, shape).x
    ref = outputs(fm, fresh)[0]
    base = _agree(ref, q, fresh)
    for row in table.rows[:3]:
        assert row.gain_float > 0
        d = _agree(ref, keep_float(q, fm, [row.name]), fresh) - base
        noise = 3 * np.sqrt(d.var() / len(d) + row.gain_float * (1 - row.gain_float) / table.images)
        assert d.mean() >= row.gain_float - noise, (row.name, d.mean(), row.gain_float, noise)
