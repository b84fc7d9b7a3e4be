"""The ONE function that turns a decoded image into a model input tensor: ``apply(spec, image)``.

Calibration-set generation, inference helpers, the fusion check and the mismatch doctor's
tests all call it, so calibration and inference cannot drift. Steps, in order (seed 004):
colour conversion -> resize -> centre crop -> letterbox -> channel order -> dtype -> scale ->
mean/std -> layout. Resizing uses Pillow with the spec's named interpolation.
"""
from __future__ import annotations

import os

import numpy as np

from npuready.errors import InputError
from npuready.preprocess.spec import PreprocessSpec
from npuready.runtime.letterbox import letterbox_geometry  # one fit for paste and inverse

ImageLike = np.ndarray | str | os.PathLike


def _pil():
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - pillow comes with the data extra
        raise InputError("preprocess: Pillow is not installed; pip install 'npuready[data]'") from None
    return Image


def _resample(name: str) -> int:
    Image = _pil()
    return {"nearest": Image.Resampling.NEAREST, "bilinear": Image.Resampling.BILINEAR,
            "bicubic": Image.Resampling.BICUBIC, "lanczos": Image.Resampling.LANCZOS,
            "box": Image.Resampling.BOX, "hamming": Image.Resampling.HAMMING}[name]


def decode(image: ImageLike, color: str = "RGB"):
    """A PIL image in mode 'RGB' (or 'L' for GRAY) from a file path or an HWC/HW uint8 array (RGB)."""
    Image = _pil()
    mode = "L" if color == "GRAY" else "RGB"
    if isinstance(image, (str, os.PathLike)):
        from npuready.inputs.image import open_image

        return open_image(image, mode, f"image {image}")
    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise InputError(f"image array: dtype {arr.dtype}; give decoded uint8 pixels (H,W,3 RGB or H,W)")
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    if not (arr.ndim == 2 or (arr.ndim == 3 and arr.shape[2] == 3)):
        raise InputError(f"image array: shape {arr.shape}; give H,W,3 (RGB) or H,W (gray)")
    return Image.fromarray(arr).convert(mode)


def resize_shorter(size: tuple[int, int], shorter: int) -> tuple[int, int]:
    """(H, W) after resizing the shorter side to ``shorter`` (torchvision's int-size rule)."""
    h, w = size
    if h <= w:
        return shorter, int(shorter * w / h)
    return int(shorter * h / w), shorter


def center_crop_box(size: tuple[int, int], crop: tuple[int, int]) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of a centred crop, rounded like torchvision."""
    h, w = size
    ch, cw = crop
    if ch > h or cw > w:
        raise InputError(f"centre crop {ch}x{cw}: larger than the resized image {h}x{w}; resize first")
    top = int(round((h - ch) / 2.0))
    left = int(round((w - cw) / 2.0))
    return left, top, left + cw, top + ch


def _spatial(spec: PreprocessSpec, im) -> np.ndarray:
    Image = _pil()
    resample = _resample(spec.interpolation)
    if spec.resize is not None:
        h, w = spec.resize if isinstance(spec.resize, tuple) else resize_shorter((im.height, im.width), spec.resize)
        im = im.resize((w, h), resample)
    if spec.center_crop is not None:
        im = im.crop(center_crop_box((im.height, im.width), spec.center_crop))
    if spec.letterbox is not None:
        (nh, nw), (top, left) = letterbox_geometry((im.height, im.width), spec.letterbox)
        fill = spec.pad_value if im.mode == "L" else (spec.pad_value,) * 3
        canvas = Image.new(im.mode, (spec.letterbox[1], spec.letterbox[0]), fill)
        canvas.paste(im.resize((nw, nh), resample), (left, top))
        im = canvas
    arr = np.asarray(im, dtype=np.uint8)
    return arr[:, :, None] if arr.ndim == 2 else arr


def apply(spec: PreprocessSpec, image: ImageLike) -> np.ndarray:
    """The model-boundary tensor for one decoded image (RGB uint8 array or image file).

    Raises InputError when the spec still waits for a model size (bind it first).
    """
    if spec.fit_model_size:
        raise InputError(f"spec {spec.name!r}: takes its size from the model; bind it to one "
                         "(npuready.preprocess.bind_to_model or --model) before applying it")
    hwc = _spatial(spec, decode(image, spec.color))
    if spec.color == "BGR":
        hwc = hwc[:, :, ::-1]
    if spec.dtype == "uint8":
        x = np.ascontiguousarray(hwc)
    else:
        x = hwc.astype(np.float32)
        if spec.scale is not None:
            x = x * np.float32(spec.scale)
        if spec.mean is not None:
            x = (x - np.asarray(spec.mean, np.float32)) / np.asarray(spec.std, np.float32)
    if spec.layout == "NHWC":
        x = x[None]
    elif spec.layout == "NCHW":
        x = x.transpose(2, 0, 1)[None]
    return np.ascontiguousarray(x)


def to_layout(x: np.ndarray, src: str, dst: str) -> np.ndarray:
    """Re-arrange one image tensor between HWC, NHWC (N=1) and NCHW (N=1)."""
    if src == dst:
        return x
    hwc = {"HWC": lambda a: a, "NHWC": lambda a: a[0], "NCHW": lambda a: a[0].transpose(1, 2, 0)}[src](x)
    out = {"HWC": lambda a: a, "NHWC": lambda a: a[None], "NCHW": lambda a: a.transpose(2, 0, 1)[None]}[dst](hwc)
    return np.ascontiguousarray(out)
