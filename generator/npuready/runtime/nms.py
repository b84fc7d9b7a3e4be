"""Non-maximum suppression on the CPU.

``nms`` is the plain per-class greedy algorithm on x1y1x2y2 boxes; ``nms_onnx`` reproduces the ONNX
``NonMaxSuppression`` operator (selected_indices [K, 3] = batch, class, box), so a graph's NMS can be
removed and replaced by this function.
"""
from __future__ import annotations

import numpy as np


def _corners(boxes: np.ndarray, center_point_box: int) -> np.ndarray:
    b = np.asarray(boxes, np.float32)
    if center_point_box:
        xc, yc, w, h = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
        return np.stack([xc - w / 2, yc - h / 2, xc + w / 2, yc + h / 2], axis=-1)
    # ONNX corner format: any diagonal pair, in either order
    return np.stack([np.minimum(b[..., 0], b[..., 2]), np.minimum(b[..., 1], b[..., 3]),
                     np.maximum(b[..., 0], b[..., 2]), np.maximum(b[..., 1], b[..., 3])], axis=-1)


def _iou_one(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    x1 = np.maximum(box[0], others[:, 0])
    y1 = np.maximum(box[1], others[:, 1])
    x2 = np.minimum(box[2], others[:, 2])
    y2 = np.minimum(box[3], others[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1])
    union = area + areas - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(union > 0, inter / union, 0.0)
    return iou


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float = 0.5, score_threshold: float | None = None,
        max_output: int | None = None) -> np.ndarray:
    """Greedy NMS for one class: boxes [N, 4] x1y1x2y2, scores [N] → kept indices (int64), best first.

    A box is dropped when its IoU with a kept box is > ``iou_threshold``; boxes with score <=
    ``score_threshold`` are never kept. Equal scores keep the lower index first.
    """
    b = _corners(boxes, 0)
    s = np.asarray(scores, np.float32)
    order = np.argsort(-s, kind="stable")
    if score_threshold is not None:
        order = order[s[order] > score_threshold]
    keep: list[int] = []
    limit = len(order) if max_output is None else max_output
    while order.size and len(keep) < limit:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        order = rest[_iou_one(b[i], b[rest]) <= iou_threshold]
    return np.asarray(keep, np.int64)


def nms_onnx(boxes: np.ndarray, scores: np.ndarray, max_output_boxes_per_class: int = 0, iou_threshold: float = 0.0,
             score_threshold: float | None = None, center_point_box: int = 0) -> np.ndarray:
    """ONNX NonMaxSuppression: boxes [B, N, 4], scores [B, C, N] → selected_indices [K, 3] int64."""
    corners = _corners(boxes, center_point_box)
    sc = np.asarray(scores, np.float32)
    rows = []
    if max_output_boxes_per_class <= 0:
        return np.zeros((0, 3), np.int64)
    for bi in range(sc.shape[0]):
        for ci in range(sc.shape[1]):
            kept = nms(corners[bi], sc[bi, ci], iou_threshold, score_threshold, max_output_boxes_per_class)
            rows.extend((bi, ci, int(k)) for k in kept)
    return np.asarray(rows, np.int64).reshape(-1, 3)
