"""The ONE function that turns a decoded image into a model input tensor: ``apply(spec, image)``.

Calibration-set generation, inference helpers, the fusion check and the mismatch doctor's
tests all call it, so calibration and inference cannot drift. Steps, in order: colour conversion ->
PaddleOCR's side limit -> resize -> centre crop -> letterbox -> channel order -> dtype -> scale ->
mean/std -> padding after normalisation -> layout. Resizing uses the spec's ``resizer`` (Pillow by
default, OpenCV or torch's area mode, as an exporter's own code does) and named interpolation.
"""
from __future__ import annotations

import os

import numpy as np

from npuready.errors import InputError
from npuready.preprocess.resizers import _pil
from npuready.preprocess.spec import PreprocessSpec
# one fit for paste and inverse; re-exported: tests/preprocess/test_pipeline.py imports it from here
from npuready.runtime.letterbox import letterbox_geometry  # noqa: F401

ImageLike = np.ndarray | str | os.PathLike


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


def resize_shorter(size: tuple[int, int], shorter: int, rounding: str = "torchvision") -> tuple[int, int]:
    """(H, W) after resizing the shorter side to ``shorter``: torchvision's int() rule, or PaddleClas'
    ``ResizeImage(resize_short)`` (both sides scaled by shorter / min(h, w), then round())."""
    h, w = size
    if rounding == "paddle":
        percent = float(shorter) / min(h, w)
        return int(round(h * percent)), int(round(w * percent))
    if h <= w:
        return shorter, int(shorter * w / h)
    return int(shorter * h / w), shorter


def limit_size(size: tuple[int, int], side: int, kind: str, multiple: int | None) -> tuple[int, int]:
    """PaddleOCR's detector resize (``DetPreProcess.resize``): scale so the shorter side reaches ``side``
    (``min``, never down) or the longer side fits it (``max``, never up), truncate, round to ``multiple``."""
    h, w = size
    if kind == "max":
        ratio = float(side) / max(h, w) if max(h, w) > side else 1.0
    else:
        ratio = float(side) / min(h, w) if min(h, w) < side else 1.0
    rh, rw = int(h * ratio), int(w * ratio)
    if multiple:
        rh, rw = int(round(rh / multiple) * multiple), int(round(rw / multiple) * multiple)
    if rh <= 0 or rw <= 0:
        raise InputError(f"image {h}x{w}: resizes to {rh}x{rw} under limit_side {side}; the image is too small")
    return rh, rw


def center_crop_box(size: tuple[int, int], crop: tuple[int, int],
                    rounding: str = "torchvision") -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of a centred crop, offsets rounded like torchvision (or floored like Paddle)."""
    h, w = size
    ch, cw = crop
    if ch > h or cw > w:
        raise InputError(f"centre crop {ch}x{cw}: larger than the resized image {h}x{w}; resize first")
    if rounding == "paddle":
        top, left = (h - ch) // 2, (w - cw) // 2
    else:
        top, left = int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0))
    return left, top, left + cw, top + ch


def _spatial(spec: PreprocessSpec, im) -> tuple[np.ndarray, tuple[int, int, int, int] | None]:
    """H×W×C pixels after resize, crop and letterbox, and the region the image covers in a letterbox."""
    from npuready.preprocess.letterbox_fit import fit
    from npuready.preprocess.resizers import resize

    arr = np.asarray(im, dtype=np.uint8)
    arr = arr[:, :, None] if arr.ndim == 2 else arr
    how = (spec.resizer, spec.interpolation)
    if spec.limit_side is not None:
        arr = resize(arr, limit_size(arr.shape[:2], spec.limit_side, spec.limit_type, spec.size_multiple), *how)
    if spec.resize is not None:
        size = (spec.resize if isinstance(spec.resize, tuple)
                else resize_shorter(arr.shape[:2], spec.resize, spec.size_rounding))
        arr = resize(arr, size, *how)
    if spec.center_crop is not None:
        left, top, right, bottom = center_crop_box(arr.shape[:2], spec.center_crop, spec.size_rounding)
        arr = arr[top:bottom, left:right]
    region = None
    if spec.letterbox is not None:
        arr, region = fit(arr, spec.letterbox, spec.letterbox_style, spec.pad_value, *how)
    return np.ascontiguousarray(arr), region


def apply(spec: PreprocessSpec, image: ImageLike) -> np.ndarray:
    """The model-boundary tensor for one decoded image (RGB uint8 array or image file).

    Raises InputError when the spec still waits for a model size (bind it first).
    """
    if spec.fit_model_size:
        raise InputError(f"spec {spec.name!r}: takes its size from the model; bind it to one "
                         "(npuready.preprocess.bind_to_model or --model) before applying it")
    hwc, region = _spatial(spec, decode(image, spec.color))
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
        if spec.pad_output is not None and region is not None:
            top, left, nh, nw = region
            inside = np.zeros(x.shape[:2], bool)
            inside[top:top + nh, left:left + nw] = True
            x[~inside] = np.float32(spec.pad_output)
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
