"""Real inputs of the kind each trained model reads: shapes, aspect, turns and seeding."""
import numpy as np
import pytest

pytest.importorskip("skimage")

from npuready.thirdparty.catalog import MODELS  # noqa: E402
from npuready.thirdparty.inputs import KINDS, documents, faces, text_lines  # noqa: E402


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_gives_rgb_uint8_crops_and_is_seeded(kind):
    a, b = KINDS[kind](6, 2.0, 3), KINDS[kind](6, 2.0, 3)
    assert len(a) == 6
    for x, y in zip(a, b):
        assert x.dtype == np.uint8 and x.ndim == 3 and x.shape[2] == 3 and min(x.shape[:2]) >= 8
        assert np.array_equal(x, y)


def test_text_lines_are_wide_lines_and_the_turned_kind_turns_every_other_one():
    upright, turned = text_lines(4, 6.0, 1), text_lines(4, 6.0, 1, turned=True)
    assert all(x.shape[1] > 2 * x.shape[0] and x.shape[0] <= 26 for x in upright)
    assert np.array_equal(turned[0], upright[0]) and np.array_equal(turned[1], upright[1][::-1, ::-1])


def test_documents_turn_through_four_orientations_keeping_the_aspect():
    docs = documents(4, 2.0, 0)
    assert [x.shape[1] >= x.shape[0] for x in docs] == [True, True, True, True]


def test_face_boxes_hold_the_astronauts_face_region():
    for x in faces(5, 1.0, 2):
        assert 80 <= x.shape[0] <= 160 and abs(x.shape[0] - x.shape[1]) <= 2


def test_every_catalogued_model_names_a_known_input_kind():
    assert {m.inputs for m in MODELS.values()} <= set(KINDS)
    assert MODELS["ppocr-rec"].inputs == "text-lines" and MODELS["mtcnn-onet"].inputs == "faces"
