"""detection: boxes after post-processing, matched at IoU ≥ 0.5 within a class; precision and recall."""
import numpy as np

from npuready.verify.tasks.detection import DETECTION


def _head(*boxes, anchors=4):
    """yolov8 layout [1, 4 + 2 classes, anchors]: each box (cx, cy, w, h, score class 0, score class 1)."""
    out = np.zeros((1, 6, anchors), np.float32)
    for i, b in enumerate(boxes):
        out[0, :, i] = b
    return out


def test_precision_and_recall_of_matched_boxes():
    ref = _head((10, 10, 4, 4, 0.9, 0), (30, 10, 4, 4, 0, 0.5))
    # the first box moves by one pixel (IoU 0.6: matched), the second drops below the score threshold,
    # a new box appears
    cand = _head((11, 10, 4, 4, 0.85, 0), (30, 10, 4, 4, 0, 0.1), (50, 10, 4, 4, 0.6, 0))
    s = DETECTION.score((ref,), (cand,), {"layout": "yolov8", "input_hw": (64, 64)})
    assert s.value == 0.5
    d = s.details
    assert (d["precision"], d["recall"], d["matched"]) == (0.5, 0.5, 1)
    assert (d["boxes_reference"], d["boxes_candidate"]) == (2, 2)
    assert abs(d["mean_iou_matched"] - 0.6) < 1e-6


def test_a_box_of_another_class_does_not_match():
    ref = _head((10, 10, 4, 4, 0.9, 0))
    cand = _head((10, 10, 4, 4, 0, 0.9))
    s = DETECTION.score((ref,), (cand,), {"layout": "yolov8", "input_hw": (64, 64)})
    assert s.value == 0.0 and s.details["matched"] == 0


def test_no_boxes_on_either_side_agree():
    z = _head()
    s = DETECTION.score((z,), (z,), {"layout": "yolov8", "input_hw": (64, 64)})
    assert s.value == 1.0 and s.details["precision"] == 1.0 and s.details["recall"] == 1.0
