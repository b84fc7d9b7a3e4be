"""Anchor-free box decoding (dist2bbox style, as in YOLOv8/FCOS heads)."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def make_anchors(feature_hw: Sequence[tuple[int, int]], strides: Sequence[int],
                 offset: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Anchor centres in feature-grid units, row-major per level: points [N, 2] (x, y) and strides [N, 1]."""
    points, stride_col = [], []
    for (h, w), s in zip(feature_hw, strides):
        ys, xs = np.meshgrid(np.arange(h, dtype=np.float32) + offset, np.arange(w, dtype=np.float32) + offset,
                             indexing="ij")
        points.append(np.stack([xs.ravel(), ys.ravel()], axis=-1))
        stride_col.append(np.full((h * w, 1), s, np.float32))
    return np.concatenate(points).astype(np.float32), np.concatenate(stride_col).astype(np.float32)


def dist2bbox(distance: np.ndarray, anchor_points: np.ndarray, strides: "np.ndarray | float" = 1.0,
              xywh: bool = False) -> np.ndarray:
    """Distances (left, top, right, bottom) [..., N, 4] from anchor points [N, 2] → boxes [..., N, 4].

    Boxes are x1y1x2y2 (or centre-xywh when ``xywh``), multiplied by ``strides`` ([N, 1] or a scalar).
    """
    d = np.asarray(distance, np.float32)
    a = np.asarray(anchor_points, np.float32)
    lt, rb = d[..., :2], d[..., 2:]
    x1y1, x2y2 = a - lt, a + rb
    if xywh:
        out = np.concatenate([(x1y1 + x2y2) / 2, x2y2 - x1y1], axis=-1)
    else:
        out = np.concatenate([x1y1, x2y2], axis=-1)
    return (out * np.asarray(strides, np.float32)).astype(np.float32)


def decode_landmarks(offsets: np.ndarray, anchor_points: np.ndarray, strides: "np.ndarray | float" = 1.0) -> np.ndarray:
    """Landmark offsets [..., N, 2K] (x0, y0, x1, y1, ... in grid units from the anchor) → points [..., N, K, 2]."""
    o = np.asarray(offsets, np.float32)
    pts = o.reshape(*o.shape[:-1], -1, 2) + np.asarray(anchor_points, np.float32)[..., None, :]
    return (pts * np.asarray(strides, np.float32)[..., None]).astype(np.float32)
