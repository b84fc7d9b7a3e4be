import numpy as np

from npuready.runtime import dist2bbox, make_anchors


def test_make_anchors_row_major_centres_and_strides():
    pts, strides = make_anchors([(2, 3), (1, 1)], [8, 16])
    assert pts.tolist() == [[0.5, 0.5], [1.5, 0.5], [2.5, 0.5], [0.5, 1.5], [1.5, 1.5], [2.5, 1.5], [0.5, 0.5]]
    assert strides[:, 0].tolist() == [8] * 6 + [16]


def test_dist2bbox_xyxy_and_xywh():
    anchors = np.array([[2.5, 3.5]], np.float32)
    d = np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)
    assert dist2bbox(d, anchors, 2.0).tolist() == [[3.0, 3.0, 11.0, 15.0]]
    assert dist2bbox(d, anchors, 2.0, xywh=True).tolist() == [[7.0, 9.0, 8.0, 12.0]]
