import numpy as np

from npuready.runtime import nms, nms_onnx
from ort_op import run_op


def _random_boxes(rng, n):
    xy = rng.uniform(0, 100, size=(n, 2))
    wh = rng.uniform(5, 40, size=(n, 2))
    return np.concatenate([xy, xy + wh], axis=1).astype(np.float32)


def test_nms_onnx_matches_onnxruntime_operator():
    rng = np.random.default_rng(2)
    boxes = _random_boxes(rng, 200)[None]
    scores = rng.permutation(600).reshape(1, 3, 200).astype(np.float32) / 600  # distinct scores
    consts = {"m": np.array([15], np.int64), "iou": np.array([0.45], np.float32), "s": np.array([0.2], np.float32)}
    ref = run_op("NonMaxSuppression", {"boxes": boxes, "scores": scores}, constants=consts)
    got = nms_onnx(boxes, scores, 15, 0.45, 0.2)
    np.testing.assert_array_equal(got, ref)


def test_nms_onnx_center_point_format_matches_onnxruntime():
    rng = np.random.default_rng(3)
    corners = _random_boxes(rng, 50)
    centre = np.concatenate([(corners[:, :2] + corners[:, 2:]) / 2, corners[:, 2:] - corners[:, :2]], axis=1)[None]
    scores = rng.permutation(50).reshape(1, 1, 50).astype(np.float32)
    consts = {"m": np.array([50], np.int64), "iou": np.array([0.3], np.float32)}
    ref = run_op("NonMaxSuppression", {"boxes": centre, "scores": scores}, constants=consts, center_point_box=1)
    np.testing.assert_array_equal(nms_onnx(centre, scores, 50, 0.3, None, center_point_box=1), ref)


def test_nms_suppresses_overlap_keeps_disjoint():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float32)
    scores = np.array([0.9, 0.8, 0.7], np.float32)
    assert nms(boxes, scores, 0.5).tolist() == [0, 2]
    assert nms(boxes, scores, 0.5, score_threshold=0.75).tolist() == [0]
    assert nms(boxes, scores, 0.99).tolist() == [0, 1, 2]
    assert nms_onnx(boxes[None], scores[None, None], 0).shape == (0, 3)
