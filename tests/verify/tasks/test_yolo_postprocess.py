"""The YOLO heads' own post-processing: anchors, YOLOX grid decode, class-aware NMS."""
import numpy as np

from npuready.verify.tasks.yolo_postprocess import grid_anchors, iou_matrix, nms, postprocess


def test_grid_anchors_of_the_catalog_inputs():
    assert grid_anchors(320, 320) == 40 * 40 + 20 * 20 + 10 * 10 == 2100  # nudenet 320n: [1, 22, 2100]
    assert grid_anchors(416, 416) == 3549  # ddddocr's YOLOX: [1, 3549, 6]


def test_iou_matrix():
    a = np.array([[0, 0, 4, 4]], float)
    b = np.array([[1, 0, 5, 4], [10, 10, 12, 12]], float)
    assert iou_matrix(a, b).tolist() == [[12 / 20, 0.0]]


def test_nms_is_class_aware():
    xyxy = np.array([[0, 0, 4, 4], [1, 0, 5, 4], [1, 0, 5, 4]], float)
    keep = nms(xyxy, np.array([0.9, 0.8, 0.7]), np.array([0, 0, 1]), 0.45)
    assert keep.tolist() == [0, 2]  # box 1 overlaps box 0 (IoU 0.6) in its class; box 2 is another class


def test_yolox_raw_offsets_are_decoded_on_the_stride_grids():
    out = np.zeros((grid_anchors(32, 32), 7))  # 16 + 4 + 1 anchors, 5 + 2 classes
    out[5, :4] = [0.5, 0.5, np.log(2), np.log(2)]  # stride 8, cell (x 1, y 1)
    out[5, 4:] = [0.9, 0.1, 0.8]
    b = postprocess(out[None], "yolox", (32, 32), 0.25, 0.45)
    np.testing.assert_allclose(b.xyxy, [[4, 4, 20, 20]])  # centre (0.5 + 1) · 8 = 12, size 2 · 8 = 16
    np.testing.assert_allclose(b.score, [0.72])
    assert b.cls.tolist() == [1]


def test_yolov8_boxes_are_decoded_already():
    out = np.zeros((1, 6, 3))
    out[0, :, 0] = [10, 10, 4, 4, 0.9, 0.1]
    out[0, :, 1] = [11, 10, 4, 4, 0.8, 0.0]  # IoU 0.6 with anchor 0, same class: suppressed
    out[0, :, 2] = [30, 10, 4, 4, 0.0, 0.5]
    b = postprocess(out, "yolov8", (32, 32), 0.25, 0.45)
    assert b.xyxy.tolist() == [[8, 8, 12, 12], [28, 8, 32, 12]]
    assert b.cls.tolist() == [0, 1] and b.score.tolist() == [0.9, 0.5]
