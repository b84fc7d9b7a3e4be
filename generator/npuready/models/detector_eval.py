"""mAP@0.5 of the exported detector: onnxruntime outputs → numpy post-processing → mAP."""
from __future__ import annotations

from pathlib import Path

from npuready.data.detection import DetectionSet
from npuready.models.detection_metrics import mean_average_precision
from npuready.models.detector_post import postprocess
from npuready.models.onnx_eval import detector_outputs

NUM_CLASSES = 10


def onnx_map50(path: str | Path, data: DetectionSet, progress=lambda items, _: items) -> tuple[float, dict[int, float]]:
    preds = [postprocess(d, c) for d, c in detector_outputs(path, data.images, progress)]
    return mean_average_precision([p.boxes for p in preds], [p.scores for p in preds], [p.labels for p in preds],
                                  data.boxes, data.labels, NUM_CLASSES)
