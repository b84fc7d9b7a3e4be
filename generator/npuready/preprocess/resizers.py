"""The three resizers a spec can name: Pillow, OpenCV's ``cv2.resize`` and torch's ``interpolate(mode="area")``.

Exporters' own preprocessing code resizes with one of these, and their outputs differ by more than
rounding (Pillow antialiases when it shrinks, OpenCV's INTER_LINEAR does not; torch's area mode is
adaptive average pooling on float pixels). Each takes and returns an H×W×C array; Pillow and OpenCV
keep uint8, torch-area returns float32 without rounding to 8 bits, as facenet-pytorch's MTCNN feeds it.
"""
from __future__ import annotations

import numpy as np

from npuready.errors import InputError

_CV2_FLAGS = {"nearest": "INTER_NEAREST", "bilinear": "INTER_LINEAR", "bicubic": "INTER_CUBIC",
              "lanczos": "INTER_LANCZOS4", "box": "INTER_AREA"}


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


def _pillow(arr: np.ndarray, size: tuple[int, int], interpolation: str) -> np.ndarray:
    Image = _pil()
    im = Image.fromarray(arr[:, :, 0] if arr.shape[2] == 1 else arr)
    out = np.asarray(im.resize((size[1], size[0]), _resample(interpolation)), dtype=np.uint8)
    return out[:, :, None] if out.ndim == 2 else out


def _opencv(arr: np.ndarray, size: tuple[int, int], interpolation: str) -> np.ndarray:
    try:
        import cv2
    except ImportError:  # pragma: no cover - opencv-python comes with the data extra
        raise InputError("preprocess: resizer 'opencv' needs OpenCV; pip install 'npuready[data]'") from None
    out = cv2.resize(np.ascontiguousarray(arr), (size[1], size[0]),
                     interpolation=getattr(cv2, _CV2_FLAGS[interpolation]))
    return out[:, :, None] if out.ndim == 2 else out


def _area_matrix(n_in: int, n_out: int) -> np.ndarray:
    """Rows of adaptive average pooling: output i averages inputs floor(i*n/m) .. ceil((i+1)*n/m) - 1."""
    m = np.zeros((n_out, n_in))
    for i in range(n_out):
        start, end = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
        m[i, start:end] = 1.0 / (end - start)
    return m


def _torch_area(arr: np.ndarray, size: tuple[int, int], interpolation: str) -> np.ndarray:
    rows, cols = _area_matrix(arr.shape[0], size[0]), _area_matrix(arr.shape[1], size[1])
    out = np.einsum("ih,hwc,jw->ijc", rows, arr.astype(np.float64), cols)
    return out.astype(np.float32)


RESIZE = {"pillow": _pillow, "opencv": _opencv, "torch-area": _torch_area}


def resize(arr: np.ndarray, size: tuple[int, int], resizer: str, interpolation: str) -> np.ndarray:
    """``arr`` (H×W×C) resized to ``size`` (height, width) by the named library."""
    h, w = int(size[0]), int(size[1])
    if h <= 0 or w <= 0:
        raise InputError(f"resize to {h}x{w}: sizes must be positive")
    if (h, w) == arr.shape[:2] and resizer != "pillow":  # OpenCV-based code skips an identity resize too
        return arr if resizer == "opencv" else arr.astype(np.float32)
    return RESIZE[resizer](arr, (h, w), interpolation)
