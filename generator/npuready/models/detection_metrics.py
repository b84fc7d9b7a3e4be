"""Mean average precision at one IoU threshold (VOC-style, all-point interpolated), numpy only."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix between x1y1x2y2 boxes a (N×4) and b (M×4)."""
    a, b = np.asarray(a, np.float64).reshape(-1, 4), np.asarray(b, np.float64).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).clip(0).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).clip(0).prod(-1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """Area under the precision envelope (all-point interpolation, as VOC 2010+ and COCO use)."""
    r = np.concatenate([[0.0], recall, [1.0]])
    p = np.concatenate([[0.0], precision, [0.0]])
    p = np.maximum.accumulate(p[::-1])[::-1]
    steps = np.flatnonzero(r[1:] != r[:-1])
    return float(np.sum((r[steps + 1] - r[steps]) * p[steps + 1]))


def mean_average_precision(pred_boxes: Sequence[np.ndarray], pred_scores: Sequence[np.ndarray],
                           pred_labels: Sequence[np.ndarray], true_boxes: Sequence[np.ndarray],
                           true_labels: Sequence[np.ndarray], num_classes: int,
                           iou_threshold: float = 0.5) -> tuple[float, dict[int, float]]:
    """mAP over the classes that occur in the ground truth, and the per-class AP."""
    per_class: dict[int, float] = {}
    for cls in range(num_classes):
        n_true = sum(int((t == cls).sum()) for t in true_labels)
        if n_true == 0:
            continue
        records = []  # (score, is_true_positive)
        for pb, ps, pl, tb, tl in zip(pred_boxes, pred_scores, pred_labels, true_boxes, true_labels):
            p_idx, t_idx = np.flatnonzero(pl == cls), np.flatnonzero(tl == cls)
            order = p_idx[np.argsort(-ps[p_idx], kind="stable")]
            ious = box_iou(pb[order], tb[t_idx])
            matched = np.zeros(len(t_idx), bool)
            for row, i in enumerate(order):
                j = int(np.argmax(ious[row])) if len(t_idx) else -1
                hit = j >= 0 and ious[row, j] >= iou_threshold and not matched[j]
                if hit:
                    matched[j] = True
                records.append((float(ps[i]), hit))
        records.sort(key=lambda r: -r[0])
        tp = np.cumsum([r[1] for r in records], dtype=np.float64)
        fp = np.cumsum([not r[1] for r in records], dtype=np.float64)
        recall = tp / n_true if len(records) else np.zeros(0)
        precision = tp / np.maximum(tp + fp, 1e-12) if len(records) else np.zeros(0)
        per_class[cls] = average_precision(recall, precision)
    return (float(np.mean(list(per_class.values()))) if per_class else 0.0), per_class
