"""Where calibration and evaluation inputs come from (model-input layout, float32, one array per image).

``load_inputs(source, n, model)`` accepts:

- ``fashion-mnist:train`` / ``fashion-mnist:test``: the committed Fashion-MNIST subset, a stratified
  seeded sample of ``n`` images, preprocessed with the zoo input contract from ``zoo/zoo.json``
  (``npuready.preprocess``: the same ``apply`` inference uses);
- a calibration folder written by the preprocessing contract's builder (``manifest.json`` + .npy);
- a folder of images (flat, or one sub-folder per class) read through ``spec`` (``--preset``), sized to
  the model's input (``deploy.calibration.read_folder``, the same reader ``deploy --calib`` uses);
- an ``.npz`` with ``x`` (N×C×H×W float) and optionally ``y`` (labels).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from npuready.errors import InputError

FASHION = {"fashion-mnist:train": "train", "fashion-mnist:test": "test"}


@dataclass(frozen=True)
class Inputs:
    x: np.ndarray              # N×C×H×W float32 (model layout)
    labels: np.ndarray | None  # N int64 or None
    source: str


def _zoo_spec_for(shape):
    """The zoo input contract (``zoo/zoo.json``) of a classifier whose input shape is ``shape``."""
    from npuready.preprocess.zoo_spec import _entries, spec_from_entry, zoo_json_path

    path = zoo_json_path()
    if not path.is_file():
        raise InputError(f"{path}: missing; fashion-mnist inputs use the zoo input contract written by "
                         "'npuready train' (or pass an .npz / calibration folder)")
    for name, entry in sorted(_entries(json.loads(path.read_text())).items()):
        contract = entry.get("input") if isinstance(entry.get("input"), dict) else entry
        if entry.get("kind", "classifier") == "classifier" and \
                list(contract.get("shape", contract.get("input_shape", []))) == list(shape):
            return spec_from_entry(name, entry)
    raise InputError(f"zoo/zoo.json: no classifier with input shape {list(shape)}; pass an .npz instead")


def _sized(spec, input_shape):
    """``spec`` with a model-sized step filled from the (pinned) model input shape."""
    dims = tuple(input_shape)
    hw = {"NCHW": dims[2:4], "NHWC": dims[1:3], "HWC": dims[0:2]}.get(spec.layout, ())
    return spec.with_size(hw) if len(hw) == 2 else spec


def load_inputs(source: str, n: int | None = None, input_shape=(1, 1, 28, 28), seed: int = 0,
                spec=None) -> Inputs:
    if source in FASHION:
        from npuready.data.subset import fashion_mnist_subset
        from npuready.preprocess.calibration import stratified_indices
        from npuready.preprocess.pipeline import apply

        images, labels = fashion_mnist_subset(FASHION[source])
        idx = np.arange(len(images)) if n is None or n >= len(images) else stratified_indices(labels, n, seed)
        spec = _zoo_spec_for(input_shape)
        x = np.concatenate([apply(spec, images[int(i)]) for i in idx]).astype(np.float32)
        return Inputs(x, labels[idx].astype(np.int64), source)
    path = Path(source)
    if path.is_dir():
        from npuready.inputs.manifest import NAME, read_manifest
        from npuready.inputs.npy import read_npy

        if not (path / NAME).exists() and spec is not None:
            from npuready.deploy.calibration import read_folder

            data = read_folder(path, tuple(input_shape), _sized(spec, input_shape))
            count = len(data.files) if not n else min(n, len(data.files))
            labels = data.class_labels
            x = data.x[:count].reshape((count,) + tuple(input_shape[1:]))  # N batch-1 tensors -> N x C x H x W
            return Inputs(x, None if labels is None else labels[:count],
                          f"{count} images from {path} through preset {spec.name}")
        if not (path / NAME).exists():
            raise InputError(f"{path}: no {NAME}; build it with 'npuready preprocess calib', or give --preset "
                             "to read it as a folder of images")
        m = read_manifest(path)
        count = len(m.files) if not n else min(n, len(m.files))
        xs = []
        for i in range(count):
            x = read_npy(m.files[i], f"{path / NAME}: samples[{i}] ({m.relative[i]})", inside=path)
            if x.size != int(np.prod(input_shape[1:])):
                raise InputError(f"{path / NAME}: samples[{i}] ({m.relative[i]}): shape {list(x.shape)} does not "
                                 f"match the model input {list(input_shape)}")
            xs.append(x.reshape(1, *input_shape[1:]))
        labels = np.asarray(m.labels[:count], np.int64) if m.labels is not None else None
        return Inputs(np.concatenate(xs).astype(np.float32), labels, str(path))
    if path.suffix == ".npz" and path.exists():
        from npuready.inputs.npz import read_npz

        arrays = read_npz(path, required=("x",), optional=("y",), finite=("x",))
        x, y = arrays["x"], arrays.get("y")
        if y is not None and len(x) != len(y):  # before anything is truncated to ``n``
            raise InputError(f"{path}: {len(y)} labels for {len(x)} images; give exactly one label per image in 'y'")
        if x.ndim != len(input_shape) or tuple(x.shape[1:]) != tuple(input_shape[1:]):
            raise InputError(f"{path}: 'x' has shape {list(x.shape)}; the model takes "
                             f"N×{'×'.join(map(str, input_shape[1:]))}")
        if y is not None:
            if y.dtype.kind not in "iu" or y.ndim != 1 or len(y) != len(x):
                raise InputError(f"{path}: 'y' must be {len(x)} integer class labels (one per row of 'x'), "
                                 f"got {y.dtype} {list(y.shape)}")
            if len(y) and (y.min() < 0 or y.max() > np.iinfo(np.int32).max):
                raise InputError(f"{path}: 'y' holds label {int(y.min() if y.min() < 0 else y.max())}; labels are "
                                 "class indices ≥ 0")
        x = x[:n] if n else x
        y = (y[:n] if n else y) if y is not None else None
        return Inputs(np.asarray(x, np.float32), None if y is None else np.asarray(y, np.int64), str(path))
    raise InputError(f"inputs {source!r}: not found; use fashion-mnist:train, fashion-mnist:test, "
                     "a calibration folder (manifest.json) or an .npz with 'x'")
