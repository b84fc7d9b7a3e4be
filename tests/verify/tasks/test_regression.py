"""regression: SNR in dB per output, the worst one decides."""
import math

import numpy as np

from npuready.verify.tasks.regression import REGRESSION, snr_db


def test_snr_is_signal_over_noise_in_db():
    # signal 3² + 4² = 25, noise 0.5² = 0.25: ratio 100 → 20 dB
    assert snr_db(np.array([3.0, 4.0]), np.array([3.5, 4.0])) == 20.0
    assert snr_db(np.ones(3), np.ones(3)) == math.inf


def test_worst_output_decides_and_identical_outputs_are_inf():
    ref = (np.array([[3.0, 4.0]]), np.array([[1.0, 0.0]]))
    cand = (np.array([[3.5, 4.0]]), np.array([[1.0, 0.0]]))
    s = REGRESSION.score(ref, cand, {"output_names": ("boxes", "probs")})
    assert s.value == 20.0 and s.unit == "dB" and s.passed  # limit 20 dB
    assert s.details == {"snr_db": {"boxes": 20.0, "probs": None}, "worst_output": "boxes"}
    same = REGRESSION.score(ref, ref)
    assert same.value == math.inf and same.shown() == "inf dB"
    assert same.to_dict()["value"] is None and same.to_dict()["identical"] is True
