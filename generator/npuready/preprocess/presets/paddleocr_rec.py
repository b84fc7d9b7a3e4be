"""PaddleOCR's text recogniser and direction classifier as RapidOCR 1.4.4 feeds them (``resize_norm_img``).

BGR, ``cv2.resize`` (INTER_LINEAR) to the model's height 48 with width ceil(48 * w / h) capped at the
model's width (320 for the recogniser, 192 for the classifier: ``rec_img_shape``/``cls_image_shape``),
(x / 255 - 0.5) / 0.5, then padded on the right with zeros *after* normalisation.
"""
from npuready.preprocess.spec import PreprocessSpec

PRESET = PreprocessSpec(
    name="paddleocr-rec", color="BGR", dtype="float32", layout="NCHW", resizer="opencv", interpolation="bilinear",
    fit_model_size="letterbox", letterbox_style="height", pad_output=0.0, scale=1.0 / 255.0,
    mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5),
    description="PaddleOCR text recogniser / direction classifier: BGR text line resized to the model's height "
                "(48), width ceil(48*w/h) capped at the model's width (OpenCV bilinear), (x/255 - 0.5)/0.5, "
                "zero-padded on the right after normalisation, float32 NCHW.",
    source="rapidocr-onnxruntime 1.4.4: ch_ppocr_rec/text_recognize.py and ch_ppocr_cls/text_cls.py "
           "resize_norm_img (rec_img_shape [3, 48, 320], cls_image_shape [3, 48, 192])")
