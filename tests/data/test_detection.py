import numpy as np
import pytest

from npuready.data.detection import SIZE, detection_set, training_epoch
from npuready.data.subset import fashion_mnist_subset
from npuready.errors import InputError


@pytest.fixture(scope="module")
def small():
    return detection_set("test", 24)


def test_detection_set_is_deterministic_by_seed(small):
    again = detection_set("test", 24)
    assert np.array_equal(small.images, again.images)
    assert all(np.array_equal(a, b) for a, b in zip(small.boxes, again.boxes))
    assert all(np.array_equal(a, b) for a, b in zip(small.labels, again.labels))
    other = detection_set("test", 24, seed=99)
    assert not np.array_equal(small.images, other.images)


def test_boxes_lie_inside_the_image_and_do_not_overlap(small):
    assert small.images.shape == (24, SIZE, SIZE, 3) and small.images.dtype == np.uint8
    for boxes, labels in zip(small.boxes, small.labels):
        assert 1 <= len(boxes) <= 3 and len(boxes) == len(labels)
        assert (boxes[:, :2] >= 0).all() and (boxes[:, 2:] <= SIZE).all()
        assert (boxes[:, 2:] > boxes[:, :2]).all()
        assert set(labels.tolist()) <= set(range(10))
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_pasted_item_changes_the_pixels_inside_its_box():
    plain = detection_set("test", 4)
    for image, boxes in zip(plain.images, plain.boxes):
        x1, y1, x2, y2 = boxes[0].astype(int)
        inside = image[y1:y2, x1:x2].astype(np.float32)
        assert inside.std() > 5  # the item's shape shows against the background


def test_train_and_test_streams_differ():
    assert not np.array_equal(detection_set("train", 2).images, detection_set("test", 2).images)


def test_bad_arguments():
    with pytest.raises(InputError, match="detection split 'val'"):
        detection_set("val", 2)
    with pytest.raises(InputError, match="count 0"):
        detection_set("test", 0)


def _pool(label: int):
    items, _ = fashion_mnist_subset("train")
    return items[:50], np.full(50, label, np.int64)


def test_a_pool_replaces_the_subset_items():
    data = detection_set("train", 6, pool=_pool(7))
    assert all(set(labels.tolist()) == {7} for labels in data.labels)


def test_training_epochs_are_fresh_and_reproducible():
    pool = _pool(3)
    first, again, second = training_epoch(1, 4, pool), training_epoch(1, 4, pool), training_epoch(2, 4, pool)
    assert np.array_equal(first.images, again.images)
    assert not np.array_equal(first.images, second.images)
    held_out = detection_set("train", 4, seed=[1, 0], pool=pool)  # the trainer's val compositions
    assert not np.array_equal(first.images, held_out.images)
