"""The preset registry (explicit dict): the named input formats.

The first ones are those of the founding list of input formats. That list names the presets and
fixes their structure (which steps, uint8 input, letterbox size and pad value, fused normalisation);
its tables omit some numbers, so every preset says in ``source`` which values come from that list
and which are npuready defaults. The others, one per file in this package, reproduce what a trained
model's own distribution does in its Python code (``source`` names the wheel, its version and file).
"""
from __future__ import annotations

from npuready.errors import InputError
from npuready.preprocess.presets import imagenet_bgr, mtcnn, nudenet, paddleocr_det, paddleocr_rec, yolov8, yolox
from npuready.preprocess.spec import PreprocessSpec

#: torchvision's ImageNet recipe (resize 256, crop 224, ToTensor /255, Normalize).
IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
UNIT = 1.0 / 255.0
#: Fashion-MNIST training-set pixel mean and std of x/255 (rounded to 4 digits; the zoo's contract).
FASHION_MNIST_MEAN = 0.2860
FASHION_MNIST_STD = 0.3530
#: Side of the square RGB input the library architectures are trained at (the 28x28 images resized).
FASHION_MNIST_RGB_SIZE = 64

_SEED = "the founding list of input formats"


def _yolo(size: int) -> PreprocessSpec:
    return PreprocessSpec(
        name=f"yolo_{size}", color="RGB", dtype="uint8", layout="NCHW", letterbox=(size, size), pad_value=114,
        scale=UNIT, fuse_normalization=True,
        description=f"YOLO-family detector exported at {size}x{size}: aspect-preserving resize, letterbox "
                    f"pad 114, x/255 folded into the model; uint8 RGB input.",
        source=f"{_SEED}: extends detection; 3-channel uint8 input, letterbox {size}x{size}, pad 114; "
               "the /255 scale is the YOLO pipeline step (folded into the model)")


PRESETS: dict[str, PreprocessSpec] = {
    "classification": PreprocessSpec(
        name="classification", color="RGB", dtype="float32", layout="NCHW", fit_model_size="resize",
        interpolation="bilinear", scale=UNIT,
        description="Generic classifier not exported with the exact torchvision recipe: resize to the "
                    "model's input size, x/255, float32 NCHW.",
        source=f"{_SEED} sets only classification calibration defaults; resize-to-model and /255 are "
               "npuready defaults: override them to match your export"),
    "classification_torchvision": PreprocessSpec(
        name="classification_torchvision", color="RGB", dtype="uint8", layout="NCHW", resize=256,
        interpolation="bilinear", center_crop=(224, 224), scale=UNIT, mean=IMAGENET_MEAN, std=IMAGENET_STD,
        fuse_normalization=True,
        description="TorchVision ImageNet weights: RGB, resize shorter side 256, centre crop 224, x/255, "
                    "ImageNet mean/std folded into the first layer; the model takes uint8 RGB.",
        source=f"{_SEED}: resize, centre crop, 255 scaling, per-channel normalisation, uint8 input, "
               "scaleToUint8 + fuseIntoFirstLayer; 256/224 and mean/std are torchvision's ImageNet values"),
    "detection": PreprocessSpec(
        name="detection", color="RGB", dtype="float32", layout="NCHW", fit_model_size="letterbox",
        pad_value=114, scale=UNIT,
        description="Non-YOLO detector or a size no YOLO preset covers: letterbox to the model's input "
                    "size, pad 114, x/255, float32 NCHW.",
        source=f"{_SEED}: detection base preset; letterbox-to-model, pad 114 and /255 are npuready "
               "defaults taken from the YOLO presets"),
    "yolo_640": _yolo(640),
    "yolo_1280": _yolo(1280),
    "vision_transformer": PreprocessSpec(
        name="vision_transformer", color="RGB", dtype="float32", layout="NCHW", fit_model_size="resize",
        interpolation="bicubic", scale=UNIT,
        description="Vision Transformer: resize to the model's fixed input size, x/255; give the export's "
                    "mean/std (patch embedding is sensitive to normalisation).",
        source=f"{_SEED}: the preset defines no image preprocessing; resize-to-model (bicubic) and /255 "
               "are npuready defaults: add mean/std of your export"),
    "fashion_mnist_64_rgb": PreprocessSpec(
        name="fashion_mnist_64_rgb", color="RGB", dtype="float32", layout="NCHW",
        resize=(FASHION_MNIST_RGB_SIZE, FASHION_MNIST_RGB_SIZE), interpolation="bilinear", scale=UNIT,
        mean=(FASHION_MNIST_MEAN,) * 3, std=(FASHION_MNIST_STD,) * 3,
        description="Fashion-MNIST for library-defined architectures: the 28x28 grey image replicated to "
                    "three channels (RGB), resized to 64x64 (bilinear), x/255, then (x - 0.286) / 0.353 "
                    "per channel, float32 NCHW. Training, calibration and inference of the zoo's *_fm64 "
                    "models all go through this one contract.",
        source="npuready: Fashion-MNIST's own mean/std (the zoo contract) on every channel; 64x64 RGB so "
               "that ImageNet-style architectures (stride-32 stems) keep a 2x2 final feature map"),
    "multimodal": PreprocessSpec(
        name="multimodal", color="RGB", dtype="float32", layout="NCHW", fit_model_size="resize",
        interpolation="bilinear", scale=UNIT,
        description="Image is one of several model inputs: name it (image_input); calibration samples "
                    "must stay aligned by sample id with the other modalities.",
        source=f"{_SEED}: image input among several, aligned calibration; resize-to-model and /255 are "
               "npuready defaults"),
    **{p.name: p for p in (paddleocr_det.PRESET, paddleocr_rec.PRESET, imagenet_bgr.PRESET, mtcnn.PRESET,
                           yolov8.PRESET, nudenet.PRESET, yolox.PRESET)},
}


def preset(name: str) -> PreprocessSpec:
    """The preset called ``name``; InputError listing the known ones otherwise."""
    if name not in PRESETS:
        raise InputError(f"preset {name!r}: unknown; choose one of {', '.join(PRESETS)} "
                         "(or a spec JSON file, or zoo:<model>)")
    return PRESETS[name]
