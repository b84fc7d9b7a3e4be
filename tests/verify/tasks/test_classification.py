"""classification: top-1 agreement of the first output, as the ladder's agreement computes it."""
import numpy as np

from npuready.verify.tasks.classification import CLASSIFICATION


def test_top1_agreement_counts_flips():
    ref = np.array([[1, 0], [0, 1], [2, 1], [0, 3]], np.float32)
    cand = np.array([[1, 0], [1, 0], [2, 1], [0, 3]], np.float32)
    s = CLASSIFICATION.score((ref,), (cand,))
    assert s.value == 0.75 and s.details == {"images": 4, "flips": 1}
    assert s.limit == 0.99 and not s.passed
    assert s.at(0.75).passed


def test_only_the_first_output_counts():
    a = np.eye(3, dtype=np.float32)
    s = CLASSIFICATION.score((a, np.zeros((3, 4))), (a, np.ones((3, 4))))
    assert s.value == 1.0 and s.passed
