"""sequence: CTC greedy decoding (argmax per step, collapse repeats, drop blank 0) and string equality."""
import numpy as np

from npuready.verify.tasks.sequence import SEQUENCE, ctc_greedy, edit_distance


def _probs(*rows, classes=6):
    return np.eye(classes, dtype=np.float32)[np.array(rows)]  # [N, T, C] one-hot


def test_ctc_greedy_collapses_repeats_and_drops_blank():
    assert ctc_greedy(_probs([0, 3, 3, 0, 3, 5, 5, 0], [1, 1, 0, 2, 0, 0, 0, 0])) == [(3, 3, 5), (1, 2)]


def test_edit_distance():
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance((), (1, 2)) == 2


def test_string_equality_rate_and_character_error_rate():
    ref = _probs([0, 3, 3, 0, 3, 5, 5, 0], [1, 1, 0, 2, 0, 0, 0, 0], [0, 3, 3, 0, 3, 5, 5, 0])
    cand = _probs([0, 3, 0, 0, 3, 5, 0, 0], [1, 1, 0, 2, 0, 0, 0, 0], [3, 3, 3, 3, 5, 5, 0, 0])
    s = SEQUENCE.score((ref,), (cand,))
    # image 0 decodes to (3, 3, 5) both ways although the steps differ; image 2 loses one 3
    assert s.value == 2 / 3
    assert s.details == {"images": 3, "strings_equal": 2, "edits": 1, "reference_characters": 8,
                         "character_error_rate": 1 / 8}
    assert s.limit == 0.95 and not s.passed
