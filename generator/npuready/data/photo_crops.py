"""Many model inputs from the few real photos: seeded random square crops of ``sample_photos``.

Eight photos ship in the wheels; an experiment that needs ≥100 distinct natural images draws crops of
them (side between a third of the shorter edge and all of it, uniform position), cycling through the
photos in a fixed order. Same seed, same crops, anywhere. Each crop is uint8 H×W×3 RGB, ready for a
preprocessing preset (``npuready.preprocess.pipeline.apply``), which resizes it to the model.
"""
from __future__ import annotations

import numpy as np

from npuready.data.sample_photos import photos


def photo_crops(count: int, seed: int = 0) -> list[np.ndarray]:
    """``count`` crops of the sample photos, deterministic by ``seed``."""
    rng = np.random.default_rng(seed)
    pool = [image for _, image in sorted(photos().items())]
    out = []
    for i in range(count):
        image = pool[i % len(pool)]
        h, w = image.shape[:2]
        side = int(rng.integers(min(h, w) // 3, min(h, w) + 1))
        y, x = int(rng.integers(0, h - side + 1)), int(rng.integers(0, w - side + 1))
        out.append(np.ascontiguousarray(image[y:y + side, x:x + side]))
    return out
