"""dense: a probability map thresholded into regions, as a text detector (DBNet) is used.

The first output (e.g. [N, 1, H, W]) is binarised at ``threshold`` (DBNet's 0.3: pixel > 0.3 is text);
the value is the IoU of the two binary maps over all images (intersection and union summed before the
ratio), and the per-pixel agreement of the binary maps is reported beside it. Two empty maps agree
(IoU 1).
"""
from __future__ import annotations

import numpy as np

from npuready.verify.tasks.metric import TaskMetric

THRESHOLD = 0.3  # DBNet's binarisation threshold (PaddleOCR's det_db_thresh)


def _score(reference, candidate, options):
    t = float(options.get("threshold", THRESHOLD))
    a = np.asarray(reference[0]) > t
    b = np.asarray(candidate[0]).reshape(a.shape) > t
    inter, union = int((a & b).sum()), int((a | b).sum())
    iou = inter / union if union else 1.0
    return iou, {"threshold": t, "pixel_agreement": float((a == b).mean()) if a.size else 1.0,
                 "pixels": int(a.size), "positive_reference": int(a.sum()), "positive_candidate": int(b.sum()),
                 "intersection": inter, "union": union}


DENSE = TaskMetric(
    "dense", "IoU of the thresholded map", 0.9, 0.5,
    f"IoU of the first output's map thresholded at {THRESHOLD} (DBNet's binarisation), with per-pixel agreement",
    _score)
