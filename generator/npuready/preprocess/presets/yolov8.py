"""An ultralytics YOLOv8 export as ultralytics' own predictor feeds it (``LetterBox``, auto=False).

RGB, aspect-preserving ``cv2.resize`` (INTER_LINEAR) with rounded sizes, centred on a 114-grey canvas of
the model's input size, x / 255, float32 NCHW.
"""
from npuready.preprocess.spec import PreprocessSpec

PRESET = PreprocessSpec(
    name="yolov8", color="RGB", dtype="float32", layout="NCHW", resizer="opencv", interpolation="bilinear",
    fit_model_size="letterbox", letterbox_style="center", pad_value=114, scale=1.0 / 255.0,
    description="Ultralytics YOLOv8 export: RGB, letterbox to the model's size (OpenCV bilinear, centred, "
                "pad 114), x/255, float32 NCHW.",
    source="ultralytics 8.x: data/augment.py LetterBox (centre, pad 114, INTER_LINEAR) and the predictor's /255")
