"""Letterbox geometry: where a resized, padded network input sits in the original image, and its inverse.

``letterbox_geometry`` is the one definition of the fit (rounded size, integer top/left offset);
``npuready.preprocess.pipeline`` pastes with it and ``letterbox_inverse`` undoes exactly that paste,
so the CPU runtime maps boxes back through the same pixels calibration and inference were built on.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def letterbox_geometry(size: tuple[int, int], box: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((new_h, new_w), (top, left)) of an aspect-preserving fit of ``size`` into ``box``, centred."""
    h, w = size
    bh, bw = box
    r = min(bh / h, bw / w)
    nh, nw = max(1, int(round(h * r))), max(1, int(round(w * r)))
    return (nh, nw), ((bh - nh) // 2, (bw - nw) // 2)


@dataclass(frozen=True)
class Letterbox:
    """Where the resized image (``new_h``×``new_w``) sits in the network input: offset (left, top)."""

    scale: float
    pad_x: float
    pad_y: float
    src_h: int
    src_w: int
    new_h: int
    new_w: int


def letterbox_params(src_hw: tuple[int, int], dst_hw: tuple[int, int], center: bool = True) -> Letterbox:
    """Keep the aspect ratio: scale = min(dst/src), size rounded, padding split like the pipeline
    (integer offset, the odd pixel at the bottom/right) when ``center``, else all at the bottom/right."""
    (nh, nw), (top, left) = letterbox_geometry(src_hw, dst_hw)
    if not center:
        top, left = 0, 0
    scale = min(dst_hw[0] / src_hw[0], dst_hw[1] / src_hw[1])
    return Letterbox(scale=scale, pad_x=float(left), pad_y=float(top), src_h=src_hw[0], src_w=src_hw[1],
                     new_h=nh, new_w=nw)


def letterbox_inverse(boxes: np.ndarray, lb: Letterbox, clip: bool = True) -> np.ndarray:
    """Network-input x1y1x2y2 boxes [..., 4] (or points [..., 2]) → original-image coordinates.

    Uses the per-axis ratio of the rounded resize (src/new), which is what the paste really did.
    """
    b = np.asarray(boxes, np.float32).copy()
    b[..., 0::2] = (b[..., 0::2] - lb.pad_x) * (lb.src_w / lb.new_w)
    b[..., 1::2] = (b[..., 1::2] - lb.pad_y) * (lb.src_h / lb.new_h)
    if clip:
        b[..., 0::2] = np.clip(b[..., 0::2], 0, lb.src_w)
        b[..., 1::2] = np.clip(b[..., 1::2], 0, lb.src_h)
    return b
