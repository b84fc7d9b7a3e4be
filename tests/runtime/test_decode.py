import numpy as np

from npuready.runtime import decode_landmarks, dist2bbox, make_anchors, letterbox_inverse, letterbox_params


def test_make_anchors_row_major_centres_and_strides():
    pts, strides = make_anchors([(2, 3), (1, 1)], [8, 16])
    assert pts.tolist() == [[0.5, 0.5], [1.5, 0.5], [2.5, 0.5], [0.5, 1.5], [1.5, 1.5], [2.5, 1.5], [0.5, 0.5]]
    assert strides[:, 0].tolist() == [8] * 6 + [16]


def test_dist2bbox_xyxy_and_xywh():
    anchors = np.array([[2.5, 3.5]], np.float32)
    d = np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)
    assert dist2bbox(d, anchors, 2.0).tolist() == [[3.0, 3.0, 11.0, 15.0]]
    assert dist2bbox(d, anchors, 2.0, xywh=True).tolist() == [[7.0, 9.0, 8.0, 12.0]]


def test_decode_landmarks_then_letterbox_inverse():
    anchors = np.array([[0.5, 0.5], [1.5, 0.5]], np.float32)
    offsets = np.array([[1.0, 2.0, -0.5, 0.0], [0.0, 0.0, 1.0, 1.0]], np.float32)  # 2 anchors x 2 points
    strides = np.array([[8.0], [8.0]], np.float32)
    pts = decode_landmarks(offsets, anchors, strides)
    assert pts.shape == (2, 2, 2)
    assert pts.tolist() == [[[12.0, 20.0], [0.0, 4.0]], [[12.0, 4.0], [20.0, 12.0]]]
    lb = letterbox_params((32, 64), (64, 64))  # scale 1, 16 px padding top and bottom
    assert letterbox_inverse(pts, lb)[0].tolist() == [[12.0, 4.0], [0.0, 0.0]]
