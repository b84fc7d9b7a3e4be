"""Synthetic detection set: Fashion-MNIST items pasted at known boxes onto crops of real photos.

Deterministic by seed. By default items come from the committed subset (train split → train items,
test split → test items), so the set builds anywhere; the detector trainer passes the full Debian
Fashion-MNIST training items as ``pool`` and a fresh seed per epoch, so it never sees the same
image twice (``training_epoch``). Backgrounds are random square crops of every photo in
``npuready.data.sample_photos`` resized to ``size``×``size`` (both splits draw crops from the same photos,
at different random positions). Each item is scaled to 28–44 px, tinted with a random colour
(flipped to its complement when too close to the local background mean) and alpha-blended by its
own intensity; its box is the tight box of alpha > 0.1, in pixels, xyxy, half-open (x2, y2
exclusive). Items do not overlap.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from npuready.data.sample_photos import photos
from npuready.data.subset import fashion_mnist_subset
from npuready.errors import InputError

SIZE = 96
ALPHA_THRESHOLD = 0.1
#: split -> default seed (different streams for train and test)
SPLIT_SEEDS: dict[str, int] = {"train": 1, "test": 2}


@dataclass(frozen=True)
class DetectionSet:
    images: np.ndarray              # uint8 N×S×S×3 RGB
    boxes: tuple[np.ndarray, ...]   # per image float32 K×4 (x1, y1, x2, y2) in pixels
    labels: tuple[np.ndarray, ...]  # per image int64 K (Fashion-MNIST class ids)

    def __len__(self) -> int:
        return len(self.images)


def _resize(array: np.ndarray, size: int) -> np.ndarray:
    from PIL import Image  # ships with scikit-image (the data extra)

    return np.asarray(Image.fromarray(array).resize((size, size), Image.BILINEAR))


def _background(rng: np.random.Generator, backgrounds: list[np.ndarray], size: int) -> np.ndarray:
    photo = backgrounds[rng.integers(len(backgrounds))]
    h, w = photo.shape[:2]
    side = int(rng.integers(size, min(h, w) + 1))
    y, x = int(rng.integers(0, h - side + 1)), int(rng.integers(0, w - side + 1))
    return _resize(np.ascontiguousarray(photo[y:y + side, x:x + side]), size).astype(np.float32)


def _overlaps(box: np.ndarray, placed: list[np.ndarray]) -> bool:
    return any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed)


def detection_set(split: str, count: int, seed: int | Sequence[int] | None = None, size: int = SIZE,
                  max_objects: int = 3, pool: tuple[np.ndarray, np.ndarray] | None = None) -> DetectionSet:
    """``count`` images of ``split`` ("train"/"test"), each with 1–``max_objects`` non-overlapping items.

    ``pool`` — (uint8 N×28×28 items, N labels) to draw from instead of the committed subset of ``split``.
    """
    if split not in SPLIT_SEEDS:
        raise InputError(f"detection split {split!r}: unknown; use one of {sorted(SPLIT_SEEDS)}")
    if count < 1 or size < 48:
        raise InputError(f"detection set: count {count} / size {size}; need count ≥ 1 and size ≥ 48")
    rng = np.random.default_rng(SPLIT_SEEDS[split] if seed is None else seed)
    items, item_labels = fashion_mnist_subset(split) if pool is None else pool
    backgrounds = list(photos().values())
    images = np.empty((count, size, size, 3), np.uint8)
    all_boxes, all_labels = [], []
    for n in range(count):
        canvas = _background(rng, backgrounds, size)
        boxes, labels = [], []
        for _ in range(int(rng.integers(1, max_objects + 1))):
            for _attempt in range(20):
                scale = int(rng.integers(28, 45))
                x0, y0 = int(rng.integers(0, size - scale + 1)), int(rng.integers(0, size - scale + 1))
                k = int(rng.integers(len(items)))
                alpha = _resize(items[k], scale).astype(np.float32) / 255.0
                ys, xs = np.nonzero(alpha > ALPHA_THRESHOLD)
                if len(ys) == 0:
                    continue
                box = np.array([x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1], np.float32)
                if _overlaps(box, boxes):
                    continue
                region = canvas[y0:y0 + scale, x0:x0 + scale]
                colour = rng.uniform(0, 255, size=3).astype(np.float32)
                if abs(float(colour.mean()) - float(region.mean())) < 64:  # keep the item visible
                    colour = 255 - colour
                a = alpha[:, :, None]
                canvas[y0:y0 + scale, x0:x0 + scale] = region * (1 - a) + colour * a
                boxes.append(box)
                labels.append(int(item_labels[k]))
                break
        images[n] = np.clip(np.rint(canvas), 0, 255).astype(np.uint8)
        all_boxes.append(np.array(boxes, np.float32).reshape(-1, 4))
        all_labels.append(np.array(labels, np.int64))
    return DetectionSet(images, tuple(all_boxes), tuple(all_labels))


def training_epoch(epoch: int, count: int, pool: tuple[np.ndarray, np.ndarray], size: int = SIZE) -> DetectionSet:
    """The ``count`` fresh training images of ``epoch`` (seed [train seed, epoch]) drawn from ``pool``."""
    return detection_set("train", count, seed=[SPLIT_SEEDS["train"], epoch], size=size, pool=pool)
