"""Where calibration images come from: the sample photos, Fashion-MNIST, or a folder of images.

Each source returns ``(images, labels, description)``; images are decoded uint8 arrays or file
paths, both accepted by ``pipeline.apply``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from npuready.errors import InputError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".ppm", ".pgm", ".tif", ".tiff", ".webp")
DATASETS = ("photos", "fashion-mnist", "fashion-mnist-full")
#: The real RGB photos the doctor and fusion checks use (from npuready.data's sample photos).
TEST_PHOTOS = ("astronaut", "chelsea", "coffee", "rocket", "china", "flower")


def image_folder(folder: str | Path) -> tuple[list[Path], list[str], str]:
    """Images under ``folder``; the label is the first sub-folder name ('' for files at the top)."""
    root = Path(folder)
    if not root.is_dir():
        raise InputError(f"image folder {root}: not a directory")
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise InputError(f"image folder {root}: no images ({', '.join(IMAGE_SUFFIXES)})")
    labels = [p.relative_to(root).parts[0] if len(p.relative_to(root).parts) > 1 else "" for p in files]
    return files, labels, f"folder {root}"


def dataset(name: str, split: str = "train") -> tuple[list[Any], list[Any], str]:
    if name == "photos":
        from npuready.data import photo

        return [photo(n) for n in TEST_PHOTOS], list(TEST_PHOTOS), "scikit-image/scikit-learn sample photos"
    if name in ("fashion-mnist", "fashion-mnist-full"):
        from npuready.data import fashion_mnist, fashion_mnist_subset

        load = fashion_mnist if name.endswith("-full") else fashion_mnist_subset
        images, labels = load(split)
        what = "Fashion-MNIST" + (" (Debian package)" if name.endswith("-full") else " (committed subset)")
        return list(images), [int(v) for v in labels], f"{what} {split}"
    raise InputError(f"dataset {name!r}: unknown; choose one of {', '.join(DATASETS)} or give --images DIR")
