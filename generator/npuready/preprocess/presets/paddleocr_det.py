"""PaddleOCR's text detector (DBNet) as RapidOCR 1.4.4 feeds it (``ch_ppocr_det/utils.py: DetPreProcess``).

BGR (RapidOCR's ``LoadImage`` converts to BGR), ``cv2.resize`` (INTER_LINEAR) so the shorter side is at
least 736 (``limit_type: min``, ``limit_side_len: 736`` in its config.yaml), each side rounded to a
multiple of 32, then (x / 255 - 0.5) / 0.5 - RapidOCR's config sets mean and std 0.5, not ImageNet's.
Bound to a model pinned to a fixed size, the image is resized to that size (a multiple of 32).
"""
from npuready.preprocess.spec import PreprocessSpec

PRESET = PreprocessSpec(
    name="paddleocr-det", color="BGR", dtype="float32", layout="NCHW", resizer="opencv", interpolation="bilinear",
    limit_side=736, limit_type="min", size_multiple=32, scale=1.0 / 255.0, mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5),
    description="PaddleOCR text detector (DBNet): BGR, shorter side up to 736 then each side rounded to a "
                "multiple of 32 (OpenCV bilinear), (x/255 - 0.5)/0.5, float32 NCHW; a pinned model gets its size.",
    source="rapidocr-onnxruntime 1.4.4: ch_ppocr_det/utils.py DetPreProcess and config.yaml Det "
           "(limit_side_len 736, limit_type min, mean/std 0.5)")
