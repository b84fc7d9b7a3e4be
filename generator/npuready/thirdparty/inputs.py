"""Real images of the kind each trained model reads, cut from the scikit-image wheel's pictures, seeded.

A model judged on inputs it was never meant to see gives a task metric of noise: a recogniser fed
photos decodes mostly empty strings (PP-OCRv4 rec: 35 characters over 24 photo crops), a face
box-regressor fed sky gives offsets near zero. ``KINDS`` maps an input kind to its maker, each
``maker(n, aspect, seed) -> list of RGB uint8 arrays`` (width / height ≈ ``aspect``):

- ``photos``: crops of the wheel's photos (astronaut, chelsea, coffee, rocket, …);
- ``text-lines``: single text lines of ``skimage.data.page()`` (a scanned book page), random horizontal
  windows, upright (what a recogniser reads);
- ``text-lines-turned``: the same, every other one turned 180° (a direction classifier's two classes);
- ``documents``: square-ish crops of ``page()`` and ``text()`` (handwriting on paper), turned 0/90/180/270°
  in turn (an orientation classifier's four classes, a text detector's pages);
- ``faces``: jittered boxes around the astronaut's face (MTCNN's R-/O-Net read such candidate boxes);
- ``mixed``: photos and documents alternately (ddddocr's detector finds characters on pictures).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

PHOTOS = ("astronaut", "chelsea", "coffee", "rocket", "camera", "coins", "page", "text", "immunohistochemistry",
          "hubble_deep_field", "moon")
# Rows (top, bottom) of the text lines of skimage.data.page() (191×384), read off its ink profile.
PAGE_LINES = ((12, 33), (48, 66), (64, 83), (81, 100), (98, 118), (116, 137), (166, 189))
# The astronaut's face in skimage.data.astronaut() (512×512): centre x, y and side of a square box.
FACE = (222, 115, 120)


def _rgb(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    return np.repeat(a[:, :, None], 3, axis=2) if a.ndim == 2 else np.ascontiguousarray(a[:, :, :3])


def _crop(img: np.ndarray, aspect: float, rng, lo: float = 0.5) -> np.ndarray:
    h, w = img.shape[:2]
    ch = int(min(h, w / aspect) * rng.uniform(lo, 1.0))
    cw = max(1, min(w, int(round(ch * aspect))))
    y, x = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
    return np.ascontiguousarray(img[y:y + ch, x:x + cw])


def photos(n: int, aspect: float, seed: int) -> list[np.ndarray]:
    import skimage.data

    rng = np.random.default_rng(seed)
    imgs = [_rgb(getattr(skimage.data, name)()) for name in PHOTOS]
    return [_crop(imgs[i % len(imgs)], aspect, rng) for i in range(n)]


def text_lines(n: int, aspect: float, seed: int, turned: bool = False) -> list[np.ndarray]:
    import skimage.data

    rng = np.random.default_rng(seed)
    page = _rgb(skimage.data.page())
    out = []
    for i in range(n):
        top, bottom = PAGE_LINES[i % len(PAGE_LINES)]
        top, bottom = top + int(rng.integers(-2, 3)), bottom + int(rng.integers(-2, 3))
        h = bottom - top
        width = min(page.shape[1], max(h, int(round(h * aspect * rng.uniform(0.5, 1.0)))))
        x = int(rng.integers(0, page.shape[1] - width + 1))
        line = page[max(0, top):bottom, x:x + width]
        out.append(np.ascontiguousarray(line[::-1, ::-1] if turned and i % 2 else line))
    return out


def documents(n: int, aspect: float, seed: int) -> list[np.ndarray]:
    import skimage.data

    rng = np.random.default_rng(seed)
    pages = [_rgb(skimage.data.page()), _rgb(skimage.data.text())]
    out = []
    for i in range(n):
        turns = i % 4
        crop = _crop(pages[(i // 4) % 2], aspect if turns % 2 == 0 else 1 / aspect, rng, lo=0.6)
        out.append(np.ascontiguousarray(np.rot90(crop, turns)))
    return out


def faces(n: int, aspect: float, seed: int) -> list[np.ndarray]:
    import skimage.data

    rng = np.random.default_rng(seed)
    img = _rgb(skimage.data.astronaut())
    cx, cy, side = FACE
    out = []
    for _ in range(n):
        s = side * rng.uniform(0.8, 1.25)
        x = cx + rng.uniform(-0.15, 0.15) * side - s * aspect / 2
        y = cy + rng.uniform(-0.15, 0.15) * side - s / 2
        x0, y0 = int(max(0, x)), int(max(0, y))
        out.append(np.ascontiguousarray(img[y0:int(y + s), x0:int(x + s * aspect)]))
    return out


def mixed(n: int, aspect: float, seed: int) -> list[np.ndarray]:
    a, b = photos((n + 1) // 2, aspect, seed), documents(n // 2, aspect, seed + 1)
    return [(a if i % 2 == 0 else b)[i // 2] for i in range(n)]


KINDS: dict[str, Callable[[int, float, int], list[np.ndarray]]] = {
    "photos": photos, "text-lines": text_lines,
    "text-lines-turned": lambda n, aspect, seed: text_lines(n, aspect, seed, turned=True), "documents": documents,
    "faces": faces, "mixed": mixed}
