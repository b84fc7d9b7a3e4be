"""The committed Fashion-MNIST subset: 2,000 train / 1,000 test images, stratified and deterministic.

``fashion_mnist_subset(split)`` reads ``data/fashion_mnist_subset.npz`` from the repository, so the
quickstart and the tests run on machines without the Debian package. ``build_subset()`` rebuilds it
from the full set (exactly ``per_class`` images of each class, chosen by a seeded permutation).
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from npuready.atomic import write_bytes
from npuready.errors import InputError

SUBSET_FILE = "fashion_mnist_subset.npz"
#: split -> images per class (10 classes)
PER_CLASS: dict[str, int] = {"train": 200, "test": 100}
SEED = 0
ENV_VAR = "NPUREADY_DATA"


def repo_data_dir() -> Path:
    """``$NPUREADY_DATA`` or the repository's ``data/`` folder (``npuready.paths.data_dir()``)."""
    from npuready.paths import data_dir

    return Path(os.environ.get(ENV_VAR) or data_dir())


def stratified_indices(labels: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    """Exactly ``per_class`` indices of every class, picked by a seeded permutation, sorted ascending."""
    rng = np.random.default_rng(seed)
    chosen = []
    for cls in np.unique(labels):
        members = np.flatnonzero(labels == cls)
        if len(members) < per_class:
            raise InputError(f"class {cls}: only {len(members)} images, cannot take {per_class}")
        chosen.append(members[rng.permutation(len(members))[:per_class]])
    return np.sort(np.concatenate(chosen))


def build_subset(seed: int = SEED) -> dict[str, np.ndarray]:
    """The subset arrays from the full (hash-checked) Fashion-MNIST."""
    from npuready.data.debian_fashion_mnist import fashion_mnist

    arrays = {}
    for split, per_class in PER_CLASS.items():
        images, labels = fashion_mnist(split)
        idx = stratified_indices(labels, per_class, seed)
        arrays[f"{split}_images"] = images[idx]
        arrays[f"{split}_labels"] = labels[idx]
        arrays[f"{split}_indices"] = idx.astype(np.int64)
    return arrays


def write_subset(path: str | Path | None = None, seed: int = SEED) -> Path:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **build_subset(seed))
    return write_bytes(Path(path) if path else repo_data_dir() / SUBSET_FILE, buffer.getvalue())


def _subset_file(split: str) -> Path:
    """The committed subset file, after checking ``split`` and that the file is there."""
    if split not in PER_CLASS:
        raise InputError(f"Fashion-MNIST subset split {split!r}: unknown; use one of {sorted(PER_CLASS)}")
    path = repo_data_dir() / SUBSET_FILE
    if not path.is_file():
        raise InputError(f"{path}: missing; restore it from git or rebuild it with "
                         "`python -c 'from npuready.data.subset import write_subset; write_subset()'`")
    return path


def fashion_mnist_subset(split: str) -> tuple[np.ndarray, np.ndarray]:
    """The committed subset ``split`` as (uint8 N×28×28, int64 N); works without the Debian package."""
    with np.load(_subset_file(split)) as npz:
        return npz[f"{split}_images"].copy(), npz[f"{split}_labels"].astype(np.int64)


def fashion_mnist_subset_indices(split: str) -> np.ndarray:
    """Positions of the subset images inside the full Fashion-MNIST ``split``."""
    with np.load(_subset_file(split)) as npz:
        return npz[f"{split}_indices"].copy()
