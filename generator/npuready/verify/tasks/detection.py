"""detection: boxes after the model's own post-processing, the quantised rung's boxes matched to the reference's.

Both rungs' head outputs go through the same decode, score threshold and class-aware NMS
(``yolo_postprocess``); per image, each candidate box (highest score first) matches the unmatched reference
box of the same class with the highest IoU, if that IoU is at least ``match_iou`` (0.5). Precision =
matched / candidate boxes, recall = matched / reference boxes (summed over images; 1 when there are none
to find); the value is the lower of the two. A head split before its last Concat (``thirdparty.tail``: boxes
and scores as two outputs, each on its own int8 scale) is joined back along the one axis its outputs differ in.
"""
from __future__ import annotations

import numpy as np

from npuready.verify.tasks.metric import TaskMetric
from npuready.verify.tasks.yolo_postprocess import iou_matrix, postprocess

SCORE_THRESHOLD = 0.25  # ultralytics' default conf
NMS_IOU = 0.45          # YOLOX's (and ddddocr's) NMS threshold
MATCH_IOU = 0.5


def match(ref, cand, match_iou: float = MATCH_IOU) -> list[float]:
    """IoUs of the matched pairs between two ``Boxes`` of one image."""
    if not len(ref.score) or not len(cand.score):
        return []
    ious = iou_matrix(cand.xyxy, ref.xyxy)
    ious[cand.cls[:, None] != ref.cls[None, :]] = 0.0
    taken = np.zeros(len(ref.score), bool)
    found = []
    for i in np.argsort(-cand.score, kind="stable"):
        row = np.where(taken, -1.0, ious[i])
        j = int(row.argmax())
        if row[j] >= match_iou:
            taken[j] = True
            found.append(float(row[j]))
    return found


def joined(outputs) -> np.ndarray:
    """The head output: the first output, or several that differ in one axis only joined along it."""
    outs = [np.asarray(o) for o in outputs]
    if len(outs) > 1 and len({o.ndim for o in outs}) == 1:
        differ = [a for a in range(outs[0].ndim) if len({o.shape[a] for o in outs}) > 1]
        if len(differ) == 1:
            return np.concatenate(outs, axis=differ[0])
    return outs[0]


def _score(reference, candidate, options):
    layout, hw = options.get("layout", "yolov8"), tuple(options.get("input_hw", (0, 0)))
    st, ni = float(options.get("score_threshold", SCORE_THRESHOLD)), float(options.get("nms_iou", NMS_IOU))
    mi = float(options.get("match_iou", MATCH_IOU))
    n_ref = n_cand = 0
    ious: list[float] = []
    ref_out = joined(reference)
    cand_out = (joined(candidate) if len(candidate) == len(reference) else np.asarray(candidate[0])).reshape(
        ref_out.shape)
    for r, c in zip(ref_out, cand_out):
        rb, cb = postprocess(r, layout, hw, st, ni), postprocess(c, layout, hw, st, ni)
        n_ref, n_cand = n_ref + len(rb.score), n_cand + len(cb.score)
        ious += match(rb, cb, mi)
    precision = len(ious) / n_cand if n_cand else 1.0
    recall = len(ious) / n_ref if n_ref else 1.0
    return min(precision, recall), {
        "layout": layout, "precision": precision, "recall": recall, "boxes_reference": n_ref,
        "boxes_candidate": n_cand, "matched": len(ious), "mean_iou_matched": float(np.mean(ious)) if ious else None,
        "score_threshold": st, "nms_iou": ni, "match_iou": mi, "images": int(len(ref_out))}


DETECTION = TaskMetric(
    "detection", "box precision/recall (lower)", 0.9, 0.5,
    f"boxes after the head's own decode, score threshold {SCORE_THRESHOLD} and class-aware NMS (IoU {NMS_IOU}), "
    f"matched to the reference's at IoU ≥ {MATCH_IOU}: the lower of precision and recall",
    _score)
