"""dense: IoU and per-pixel agreement of maps thresholded at DBNet's 0.3."""
import numpy as np

from npuready.verify.tasks.dense import DENSE, THRESHOLD


def test_iou_and_pixel_agreement_of_the_thresholded_maps():
    ref = np.array([[[[0.1, 0.5, 0.9, 0.2], [0.31, 0.3, 0.0, 0.8]]]], np.float32)
    cand = np.array([[[[0.1, 0.2, 0.9, 0.4], [0.31, 0.35, 0.0, 0.8]]]], np.float32)
    s = DENSE.score((ref,), (cand,))
    # ref > 0.3: 4 pixels (0.3 itself is not text); cand: 5; both: 3; either: 6
    assert THRESHOLD == 0.3
    assert s.value == 0.5
    assert s.details["pixel_agreement"] == 5 / 8
    assert (s.details["intersection"], s.details["union"]) == (3, 6)
    assert (s.details["positive_reference"], s.details["positive_candidate"]) == (4, 5)
    assert not s.passed


def test_two_empty_maps_agree():
    z = np.zeros((2, 1, 3, 3), np.float32)
    s = DENSE.score((z,), (z + 0.29,))
    assert s.value == 1.0 and s.details["pixel_agreement"] == 1.0 and s.passed
