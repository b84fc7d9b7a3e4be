"""A YOLO head's own post-processing in NumPy: decode → score threshold → class-aware NMS → boxes.

Layouts (per image, batch first):
- ``yolov8``: [N, 4 + classes, anchors], boxes already decoded as cx, cy, w, h in input pixels, class
  scores after the sigmoid, no objectness (ultralytics' export);
- ``yolox``: [N, anchors, 5 + classes], raw grid offsets (YOLOX's export with decoding left to the host, as
  ddddocr ships it): xy = (raw + cell) · stride, wh = exp(raw) · stride over the stride-8/16/32 grids of the
  input, then objectness × class score;
- ``yolov5``: [N, anchors, 5 + classes], decoded cx, cy, w, h with objectness × class score.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

STRIDES = (8, 16, 32)
LAYOUTS = ("yolov8", "yolox", "yolov5")


@dataclass(frozen=True)
class Boxes:
    xyxy: np.ndarray    # [K, 4] float64
    score: np.ndarray   # [K]
    cls: np.ndarray     # [K] int


def grid_anchors(height: int, width: int, strides=STRIDES) -> int:
    """Anchor points of the stride grids of an input (YOLOv8/YOLOX: one per cell)."""
    return sum((height // s) * (width // s) for s in strides)


def _yolox_grid(height: int, width: int):
    cells, stride = [], []
    for s in STRIDES:
        xv, yv = np.meshgrid(np.arange(width // s), np.arange(height // s))
        cells.append(np.stack((xv, yv), 2).reshape(-1, 2))
        stride.append(np.full((cells[-1].shape[0], 1), s))
    return np.concatenate(cells).astype(np.float64), np.concatenate(stride).astype(np.float64)


def candidates(out: np.ndarray, layout: str, input_hw: tuple[int, int]):
    """(cxcywh [A, 4], score [A], class [A]) of one image's raw head output."""
    o = np.asarray(out, np.float64)
    if layout == "yolov8":
        o = o.reshape(o.shape[-2], o.shape[-1]).T  # [anchors, 4 + classes]
        box, cls_scores = o[:, :4], o[:, 4:]
        obj = np.ones(len(o))
    else:
        o = o.reshape(o.shape[-2], o.shape[-1])  # [anchors, 5 + classes]
        box, obj, cls_scores = o[:, :4].copy(), o[:, 4], o[:, 5:]
        if layout == "yolox":
            cells, stride = _yolox_grid(*input_hw)
            if len(cells) != len(o):
                from npuready.errors import InputError

                raise InputError(f"detection (yolox): {len(o)} anchors, but the stride-8/16/32 grids of a "
                                 f"{input_hw[0]}×{input_hw[1]} input have {len(cells)}; pin the export's input size")
            box[:, :2] = (box[:, :2] + cells) * stride
            box[:, 2:4] = np.exp(box[:, 2:4]) * stride
    if cls_scores.shape[1] == 0:
        return box, obj, np.zeros(len(o), int)
    cls = cls_scores.argmax(1)
    return box, obj * cls_scores[np.arange(len(o)), cls], cls


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box of ``a`` [K, 4] with every box of ``b`` [M, 4], both x1, y1, x2, y2."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(-1)
    area = lambda z: np.clip(z[:, 2:] - z[:, :2], 0, None).prod(-1)  # noqa: E731
    union = area(a)[:, None] + area(b)[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def nms(xyxy: np.ndarray, score: np.ndarray, cls: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by greedy class-aware NMS (a box suppresses same-class boxes overlapping it above ``iou``)."""
    order = np.argsort(-score, kind="stable")
    keep = []
    while len(order):
        i, rest = order[0], order[1:]
        keep.append(int(i))
        if not len(rest):
            break
        over = iou_matrix(xyxy[i:i + 1], xyxy[rest])[0] > iou
        order = rest[~(over & (cls[rest] == cls[i]))]
    return np.asarray(keep, int)


def postprocess(out: np.ndarray, layout: str, input_hw: tuple[int, int], score_threshold: float,
                nms_iou: float, max_boxes: int = 300) -> Boxes:
    """The boxes one image's head output stands for."""
    box, score, cls = candidates(out, layout, input_hw)
    sel = score > score_threshold
    box, score, cls = box[sel], score[sel], cls[sel]
    xyxy = np.concatenate([box[:, :2] - box[:, 2:4] / 2, box[:, :2] + box[:, 2:4] / 2], 1)
    keep = nms(xyxy, score, cls, nms_iou)[:max_boxes]
    return Boxes(xyxy[keep], score[keep], cls[keep])
