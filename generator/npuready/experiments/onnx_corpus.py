"""The onnx wheel's real test models (``onnx/backend/test/data``): the corpus the experiments lint, partition
and diagnose."""
from __future__ import annotations

from pathlib import Path

import onnx

SUBDIRS = ("light", "pytorch-converted", "pytorch-operator", "simple")


def corpus_root() -> Path:
    return Path(onnx.__file__).parent / "backend" / "test" / "data"


def corpus_files(subdirs: "tuple[str, ...] | list[str]" = SUBDIRS) -> list[Path]:
    """Every ``*.onnx`` under each of ``subdirs``, sorted within each folder, folders in the given order."""
    root = corpus_root()
    return [path for sub in subdirs for path in sorted((root / sub).rglob("*.onnx"))]
