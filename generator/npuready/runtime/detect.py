"""End-to-end CPU post-processing for an anchor-free detector that exports logits.

The exported graph returns class logits [1, C, N] and box distances [1, 4, N] (left, top, right,
bottom in grid units); this applies sigmoid, dist2bbox decoding, a score threshold, class-aware NMS
and (optionally) the letterbox inverse — the post-processing the project keeps out of the exported graph.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.runtime.activations import sigmoid
from npuready.runtime.decode import dist2bbox
from npuready.runtime.letterbox import Letterbox, letterbox_inverse
from npuready.runtime.nms import nms


@dataclass(frozen=True)
class Detections:
    boxes: np.ndarray  # [K, 4] x1y1x2y2
    scores: np.ndarray  # [K]
    labels: np.ndarray  # [K] int64


def postprocess(cls_logits: np.ndarray, box_dist: np.ndarray, anchor_points: np.ndarray, strides: np.ndarray,
                score_threshold: float = 0.25, iou_threshold: float = 0.5, max_det: int = 100,
                letterbox: Letterbox | None = None) -> Detections:
    """Batch-1 logits → detections sorted by descending score (ties: lower class, then lower anchor first)."""
    scores_cn = sigmoid(np.asarray(cls_logits)[0])  # [C, N]
    boxes = dist2bbox(np.asarray(box_dist)[0].T, anchor_points, strides)  # [N, 4]
    out_b, out_s, out_l = [], [], []
    for c in range(scores_cn.shape[0]):
        keep = nms(boxes, scores_cn[c], iou_threshold, score_threshold)
        out_b.append(boxes[keep])
        out_s.append(scores_cn[c][keep])
        out_l.append(np.full(len(keep), c, np.int64))
    b = np.concatenate(out_b) if out_b else np.zeros((0, 4), np.float32)
    s = np.concatenate(out_s) if out_s else np.zeros((0,), np.float32)
    lab = np.concatenate(out_l) if out_l else np.zeros((0,), np.int64)
    order = np.argsort(-s, kind="stable")[:max_det]
    b, s, lab = b[order], s[order], lab[order]
    if letterbox is not None:
        b = letterbox_inverse(b, letterbox)
    return Detections(b.astype(np.float32), s.astype(np.float32), lab)
