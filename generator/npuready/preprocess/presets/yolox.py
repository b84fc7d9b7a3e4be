"""A YOLOX detector as ddddocr 1.6.1 feeds its ``common_det.onnx`` (``core/detection_engine.py: preproc``).

BGR (``cv2.imdecode``), scale min(H / h, W / w), ``cv2.resize`` (INTER_LINEAR) to int()-truncated sizes,
pasted at the top-left of a 114-grey canvas of the model's size, float32 0..255 (no /255, no mean/std).
"""
from npuready.preprocess.spec import PreprocessSpec

PRESET = PreprocessSpec(
    name="yolox", color="BGR", dtype="float32", layout="NCHW", resizer="opencv", interpolation="bilinear",
    fit_model_size="letterbox", letterbox_style="top_left", pad_value=114,
    description="YOLOX detector (ddddocr): BGR, aspect-preserving resize (OpenCV bilinear, sizes truncated) "
                "at the top-left of a 114-grey canvas of the model's size, float32 0..255 NCHW.",
    source="ddddocr 1.6.1: core/detection_engine.py preproc (padded_img * 114, top-left paste, no scaling)")
