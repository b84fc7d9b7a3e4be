import numpy as np
import pytest

from npuready.models.detection_metrics import average_precision, box_iou, mean_average_precision


def test_box_iou_exact():
    a = np.array([[0, 0, 10, 10]], np.float32)
    b = np.array([[5, 0, 15, 10], [20, 20, 30, 30]], np.float32)
    np.testing.assert_allclose(box_iou(a, b), [[50 / 150, 0.0]])


def test_average_precision_all_point():
    # precision envelope over recall steps 0.5 (p=1) and 1.0 (p=2/3)
    assert average_precision(np.array([0.5, 0.5, 1.0]), np.array([1.0, 0.5, 2 / 3])) == pytest.approx(0.5 + 0.5 * 2 / 3)


def test_map_counts_duplicates_and_wrong_classes_as_false_positives():
    truth_boxes = [np.array([[0, 0, 10, 10], [20, 20, 30, 30]], np.float32)]
    truth_labels = [np.array([0, 0])]
    pred_boxes = [np.array([[0, 0, 10, 10], [0, 0, 10, 10], [20, 20, 30, 30], [20, 20, 30, 30]], np.float32)]
    pred_scores = [np.array([0.9, 0.8, 0.7, 0.95], np.float32)]
    pred_labels = [np.array([0, 0, 0, 1])]
    mean, per_class = mean_average_precision(pred_boxes, pred_scores, pred_labels, truth_boxes, truth_labels, 2)
    # class 0: TP(0.9), FP duplicate(0.8), TP(0.7) → AP = 0.5·1 + 0.5·2/3; class 1 has no ground truth
    assert per_class == {0: pytest.approx(0.5 + 0.5 * 2 / 3)}
    assert mean == pytest.approx(0.5 + 0.5 * 2 / 3)


def test_map_perfect_and_empty():
    boxes = [np.array([[1, 1, 5, 5]], np.float32)]
    labels = [np.array([2])]
    assert mean_average_precision(boxes, [np.array([0.5])], labels, boxes, labels, 3)[0] == 1.0
    empty = [np.zeros((0, 4), np.float32)]
    assert mean_average_precision(empty, [np.zeros(0)], [np.zeros(0, np.int64)], boxes, labels, 3)[0] == 0.0
