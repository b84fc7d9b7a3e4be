"""The calibration folder of ``npuready deploy --calib DIR``: read it, label it, split it (stratified).

Accepted layouts (files are taken in sorted relative-path order):

1. ``manifest.json`` written by ``npuready preprocess calib`` (its ``samples[].file`` .npy tensors and
   ``samples[].label``);
2. ``.npy`` files, one model-input tensor each (float, the model input's shape with or without the
   leading batch 1), either all directly in DIR (unlabelled) or in one sub-folder per class
   (``DIR/<label>/*.npy``; integer folder names are class indices the parity gate scores against);
3. image files (.png .jpg .jpeg .bmp .webp .tif), same flat or per-class layout, turned into tensors by
   a preprocessing spec (``--preset`` preset / ``zoo:<model>`` / spec JSON; zoo models default
   to their own input contract) with ``npuready.preprocess.apply``.

The calibration sample is stratified by label (``preprocess.calibration.stratified_indices``), seeded;
the remaining files form the held-out parity set. With too few files both use everything and the
split says so.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from npuready.errors import InputError

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"})
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class CalibrationFolder:
    folder: Path
    files: tuple[str, ...]             # relative to folder, sorted
    labels: tuple[Any, ...] | None     # one per file (str or int) or None
    kind: str                          # npy | image
    label_source: str | None           # manifest.json | sub-folders | None
    x: np.ndarray                      # N × input shape (batch 1 each), float32
    sha256: str                        # over (relative path, file bytes) of every file

    @property
    def class_labels(self) -> np.ndarray | None:
        """Labels as integer class indices, when every label is (or spells) an integer."""
        if self.labels is None:
            return None
        try:
            return np.asarray([int(v) for v in self.labels], dtype=np.int64)
        except (TypeError, ValueError):
            return None


@dataclass(frozen=True)
class Split:
    calibration: np.ndarray   # indices
    parity: np.ndarray
    overlap: bool             # parity reuses calibration inputs (no held-out files)

    def to_dict(self, data: CalibrationFolder) -> dict[str, Any]:
        per_class: dict[str, int] = {}
        if data.labels is not None:
            for i in self.calibration:
                per_class[str(data.labels[int(i)])] = per_class.get(str(data.labels[int(i)]), 0) + 1
        return {"calibration_images": int(len(self.calibration)), "parity_images": int(len(self.parity)),
                "parity_overlaps_calibration": self.overlap, "calibration_per_class": per_class,
                "stratified": data.labels is not None}


def _listing(folder: Path) -> tuple[list[str], list[Any] | None, str | None]:
    if (folder / MANIFEST).exists():
        from npuready.inputs.manifest import read_manifest

        m = read_manifest(folder)
        return list(m.relative), (list(m.labels) if m.labels is not None else None), MANIFEST
    found = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                   if p.is_file() and (p.suffix.lower() == ".npy" or p.suffix.lower() in IMAGE_SUFFIXES))
    if not found:
        raise InputError(f"{folder}: no .npy tensors or images; see `npuready deploy --help` for the layout")
    depth = {f.count("/") for f in found}
    if depth == {0}:
        return found, None, None
    if depth == {1}:
        return found, [f.split("/")[0] for f in found], "sub-folders"
    raise InputError(f"{folder}: mix of files at different depths; put all files directly in it or in one "
                     "sub-folder per class")


def _tensor(path: Path, rel: str, shape: tuple[int, ...], root: Path) -> np.ndarray:
    from npuready.inputs.npy import read_npy

    x = read_npy(path, rel, inside=root)
    if tuple(x.shape) == shape[1:]:
        x = x[None]
    if tuple(x.shape) != shape:
        raise InputError(f"{rel}: shape {list(x.shape)} does not match the model input {list(shape)} "
                         f"(or {list(shape[1:])} without the batch)")
    return x.astype(np.float32)


def _check_size(path: Path, where: str, kind: str) -> None:
    """A calibration file is hashed whole, so its size is checked first: an image within
    budget.MAX_ARRAY_BYTES, an ``.npy`` no longer than its header plus the data the header declares (a
    1×1×28×28 header in front of 10 GiB is refused, not hashed)."""
    from npuready.inputs import budget
    from npuready.inputs.npy import check_header, header

    size = path.stat().st_size
    if kind == "npy":
        with open(path, "rb") as f:
            shape, dtype = header(f, where)
            check_header(shape, dtype, where, available=size - f.tell())
            expected = f.tell() + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if size > expected:
            raise InputError(f"{where}: {size:,} bytes, but its header declares {list(shape)} {dtype} "
                             f"({expected:,} bytes with the header); the file carries trailing data")
    elif size > budget.MAX_ARRAY_BYTES:
        raise InputError(f"{where}: {size:,} bytes, above the {budget.MAX_ARRAY_BYTES:,}-byte budget for one "
                         "calibration file")


def read_folder(folder: "str | Path", input_shape: tuple[int, ...], spec=None, model=None) -> CalibrationFolder:
    """Read every tensor of ``folder`` for a model whose (static) input shape is ``input_shape``."""
    root = Path(folder)
    if not root.is_dir():
        raise InputError(f"--calib {folder}: not a folder")
    files, labels, source = _listing(root)
    kinds = {"npy" if f.lower().endswith(".npy") else "image" for f in files}
    if len(kinds) != 1:
        raise InputError(f"{root}: mixes .npy tensors and images; use one kind")
    kind = kinds.pop()
    if kind == "image":
        if spec is None:
            raise InputError(f"{root}: holds images; give --preset (a preset, zoo:<model> or a spec JSON) so "
                             "they become model inputs")
        from npuready.preprocess.bind import bind_to_model
        from npuready.preprocess.pipeline import apply

        spec = bind_to_model(spec, model) if model is not None else spec
    h = hashlib.sha256()
    xs = []
    from npuready.inputs.files import relative_inside

    for i, rel in enumerate(files):
        where = f"{root / MANIFEST}: samples[{i}].file" if source == MANIFEST else str(root / rel)
        path = relative_inside(root, rel, where)  # a regular file inside the folder, symlinks resolved
        _check_size(path, where, kind)  # before the file is hashed (read whole)
        h.update(rel.encode() + b"\0" + path.read_bytes())
        if kind == "npy":
            xs.append(_tensor(path, str(root / rel), input_shape, root))
        else:
            x = apply(spec, path)
            if tuple(x.shape) != input_shape:
                raise InputError(f"{rel}: preprocessed to {list(x.shape)}, model input is {list(input_shape)}; "
                                 "pick a spec that matches the model")
            xs.append(x.astype(np.float32))
    return CalibrationFolder(root, tuple(files), tuple(labels) if labels is not None else None, kind, source,
                             np.stack(xs), h.hexdigest())


def split(data: CalibrationFolder, n_calib: int, n_parity: int, seed: int = 0) -> Split:
    """Stratified seeded calibration sample of ``n_calib``; up to ``n_parity`` of the rest for the parity gate."""
    from npuready.preprocess.calibration import stratified_indices

    total = len(data.files)
    if total <= n_calib:
        every = np.arange(total)
        return Split(every, every[:n_parity], True)
    labels = np.asarray(data.labels if data.labels is not None else [0] * total)
    calib = stratified_indices(labels, n_calib, seed)
    rest = np.setdiff1d(np.arange(total), calib)
    if len(rest) > n_parity:
        rest = rest[stratified_indices(labels[rest], n_parity, seed + 1)]
    return Split(calib, rest, False)
