"""nudenet 3.4.2's YOLOv8n detector as its own code feeds it (``nudenet.py: _read_image``).

Unlike ultralytics' letterbox: the image is padded with black on the bottom and right to a square,
that square is resized to the model's size by ``cv2.dnn.blobFromImage`` (INTER_LINEAR) and scaled by
1/255. The channel order the model gets is BGR: ``cv2.imread`` gives BGR, ``cvtColor(COLOR_RGBA2BGR)``
on three channels swaps them to RGB, and ``blobFromImage(swapRB=True)`` swaps them back. Ultralytics,
which trained it, feeds RGB (the ``yolov8`` preset); this preset reproduces the wheel, not the training.
"""
from npuready.preprocess.spec import PreprocessSpec

PRESET = PreprocessSpec(
    name="nudenet", color="BGR", dtype="float32", layout="NCHW", resizer="opencv", interpolation="bilinear",
    fit_model_size="letterbox", letterbox_style="pad_then_resize", pad_value=0, scale=1.0 / 255.0,
    description="nudenet's YOLOv8n detector: pad bottom/right with black to a square, resize to the model's "
                "size (OpenCV bilinear), x/255, float32 NCHW; BGR, as the wheel's code ends up feeding it "
                "(its two channel swaps cancel; ultralytics' own predictor feeds RGB: preset yolov8).",
    source="nudenet 3.4.2: nudenet.py _read_image (cvtColor RGBA2BGR, copyMakeBorder, blobFromImage 1/255 swapRB)")
