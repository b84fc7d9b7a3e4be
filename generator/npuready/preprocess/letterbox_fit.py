"""Where an image goes inside a fixed-size letterbox canvas, per ``letterbox_style``.

* ``center`` - ultralytics' LetterBox: scale min(bh/h, bw/w), sizes rounded, image centred
  (``npuready.runtime.letterbox.letterbox_geometry``, the one the runtime inverts);
* ``top_left`` - YOLOX's ``preproc``: same scale, sizes truncated with int(), image at the top-left;
* ``pad_then_resize`` - nudenet: pad bottom/right to the box's aspect ratio, then resize the padded image;
* ``height`` - PaddleOCR's text-line fit: full box height, width ceil(bh * w / h) capped at the box
  width, image at the left, the rest padded.

``fit`` returns the canvas and the (top, left, height, width) region the image covers (None when the
padding was resized with the image), so padding can be rewritten after normalisation (``pad_output``).
"""
from __future__ import annotations

import math

import numpy as np

from npuready.preprocess.resizers import resize
from npuready.runtime.letterbox import letterbox_geometry


def placement(style: str, size: tuple[int, int], box: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((new_h, new_w), (top, left)) of an image of ``size`` in ``box`` for the centre/top-left/height styles."""
    h, w = size
    bh, bw = box
    if style == "center":
        return letterbox_geometry(size, box)
    if style == "top_left":
        r = min(bh / h, bw / w)
        return (max(1, int(h * r)), max(1, int(w * r))), (0, 0)
    if style == "height":
        return (bh, max(1, min(int(math.ceil(bh * (w / float(h)))), bw))), (0, 0)
    raise ValueError(style)


def fit(arr: np.ndarray, box: tuple[int, int], style: str, pad_value: int, resizer: str,
        interpolation: str) -> tuple[np.ndarray, tuple[int, int, int, int] | None]:
    h, w, c = arr.shape
    bh, bw = box
    if style == "pad_then_resize":
        ch, cw = max(h, math.ceil(w * bh / bw)), max(w, math.ceil(h * bw / bh))
        padded = np.full((ch, cw, c), pad_value, dtype=arr.dtype)
        padded[:h, :w] = arr
        return resize(padded, box, resizer, interpolation), None
    (nh, nw), (top, left) = placement(style, (h, w), box)
    small = resize(arr, (nh, nw), resizer, interpolation)
    canvas = np.full((bh, bw, c), pad_value, dtype=small.dtype)
    canvas[top:top + nh, left:left + nw] = small
    return canvas, (top, left, nh, nw)
