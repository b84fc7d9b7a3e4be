"""Fashion-MNIST from the Debian package ``dataset-fashion-mnist`` (gzip IDX, SHA-256 pinned).

``fashion_mnist(split)`` returns ``(images uint8 N×28×28, labels int64 N)`` for ``split`` in
{"train", "test"}. Every file is hash-checked before it is parsed, so a truncated or different
file is refused with an ``InputError`` instead of silently training on something else.
"""
from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np

from npuready.data.sha import sha256_file
from npuready.errors import InputError

#: Where the Debian package installs the files; ``NPUREADY_FASHION_MNIST`` overrides it.
DEFAULT_DIR = Path("/usr/share/datasets/fashion-mnist")
ENV_VAR = "NPUREADY_FASHION_MNIST"

CLASSES: tuple[str, ...] = (
    "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
    "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot",
)

#: split -> (images file, labels file)
FILES: dict[str, tuple[str, str]] = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}

#: SHA-256 of the gzip files as shipped by zalandoresearch and the Debian package.
SHA256: dict[str, str] = {
    "train-images-idx3-ubyte.gz": "b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7",
    "train-labels-idx1-ubyte.gz": "0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056",
    "t10k-images-idx3-ubyte.gz": "cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa",
    "t10k-labels-idx1-ubyte.gz": "8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05",
}

INSTALL_HINT = "install it with `apt-get install dataset-fashion-mnist` (as root)"


def data_dir() -> Path:
    """The folder holding the IDX files (``$NPUREADY_FASHION_MNIST`` or the Debian location)."""
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DIR)


def _checked(name: str) -> bytes:
    path = data_dir() / name
    if not path.is_file():
        raise InputError(f"Fashion-MNIST file {path}: missing; {INSTALL_HINT}, or set {ENV_VAR} "
                         "to a folder holding the four gzip IDX files")
    actual = sha256_file(path)
    if actual != SHA256[name]:
        raise InputError(f"Fashion-MNIST file {path}: SHA-256 {actual[:16]}… does not match the pinned "
                         f"{SHA256[name][:16]}…; reinstall with `apt-get install --reinstall dataset-fashion-mnist`")
    return gzip.decompress(path.read_bytes())


def parse_idx(raw: bytes, name: str = "IDX data") -> np.ndarray:
    """Parse an uncompressed IDX buffer (unsigned-byte payload only, as Fashion-MNIST uses)."""
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] != 0x08:
        raise InputError(f"{name}: not an unsigned-byte IDX file (bad magic); expected 0x0000 08 nn")
    ndim = raw[3]
    header = 4 + 4 * ndim
    dims = tuple(int.from_bytes(raw[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim))
    count = int(np.prod(dims)) if dims else 0
    if len(raw) != header + count:
        raise InputError(f"{name}: payload is {len(raw) - header} bytes, header says {count}")
    return np.frombuffer(raw, dtype=np.uint8, offset=header).reshape(dims).copy()


def fashion_mnist(split: str) -> tuple[np.ndarray, np.ndarray]:
    """Full Fashion-MNIST ``split`` ("train": 60,000, "test": 10,000) as (uint8 N×28×28, int64 N)."""
    if split not in FILES:
        raise InputError(f"Fashion-MNIST split {split!r}: unknown; use one of {sorted(FILES)}")
    image_name, label_name = FILES[split]
    images = parse_idx(_checked(image_name), image_name)
    labels = parse_idx(_checked(label_name), label_name).astype(np.int64)
    if images.ndim != 3 or images.shape[1:] != (28, 28) or len(images) != len(labels):
        raise InputError(f"Fashion-MNIST {split}: shapes {images.shape} / {labels.shape} are not N×28×28 / N")
    return images, labels
