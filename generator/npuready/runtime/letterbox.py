"""Letterbox geometry: where a resized, padded network input sits in the original image, and its inverse."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Letterbox:
    """Scale and padding (left, top) that map original pixels to network-input pixels."""

    scale: float
    pad_x: float
    pad_y: float
    src_h: int
    src_w: int


def letterbox_params(src_hw: tuple[int, int], dst_hw: tuple[int, int], center: bool = True) -> Letterbox:
    """Keep the aspect ratio: scale = min(dst/src); pad the rest (split evenly when ``center``)."""
    sh, sw = src_hw
    dh, dw = dst_hw
    scale = min(dh / sh, dw / sw)
    new_w, new_h = round(sw * scale), round(sh * scale)
    px, py = (dw - new_w), (dh - new_h)
    if center:
        px, py = px / 2, py / 2
    else:
        px, py = 0, 0
    return Letterbox(scale=scale, pad_x=float(px), pad_y=float(py), src_h=sh, src_w=sw)


def letterbox_inverse(boxes: np.ndarray, lb: Letterbox, clip: bool = True) -> np.ndarray:
    """Network-input x1y1x2y2 boxes [..., 4] (or points [..., 2]) → original-image coordinates."""
    b = np.asarray(boxes, np.float32).copy()
    b[..., 0::2] = (b[..., 0::2] - lb.pad_x) / lb.scale
    b[..., 1::2] = (b[..., 1::2] - lb.pad_y) / lb.scale
    if clip:
        b[..., 0::2] = np.clip(b[..., 0::2], 0, lb.src_w)
        b[..., 1::2] = np.clip(b[..., 1::2], 0, lb.src_h)
    return b
