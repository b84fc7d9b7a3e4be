"""CPU post-processing for the zoo detector: an adapter onto ``npuready.runtime.detect``.

The ONNX graph stops at raw outputs ``box_dist`` (1×4×G×G, stride units) and ``cls_logits``
(1×C×G×G). The runtime applies sigmoid, dist2bbox decoding around the stride-8 cell centres, a
score threshold and class-aware NMS; this module only flattens the grids and supplies the anchors.
"""
from __future__ import annotations

import numpy as np

from npuready.models.detector import STRIDE
from npuready.runtime.decode import make_anchors
from npuready.runtime.detect import Detections, postprocess as runtime_postprocess


def postprocess(box_dist: np.ndarray, cls_logits: np.ndarray, score_threshold: float = 0.05,
                iou_threshold: float = 0.5, max_detections: int = 100, stride: int = STRIDE) -> Detections:
    """One image's raw outputs (4×G×G and C×G×G, with or without the batch axis) → detections."""
    dist = np.asarray(box_dist, np.float32)
    h, w = dist.shape[-2:]
    logits = np.asarray(cls_logits, np.float32).reshape(1, -1, h * w)
    points, strides = make_anchors([(h, w)], [stride])
    return runtime_postprocess(logits, dist.reshape(1, 4, h * w), points, strides, score_threshold,
                               iou_threshold, max_detections)
