"""The calibration folder: layouts, labels, shape checks, stratified split."""
from __future__ import annotations

import json

import numpy as np
import pytest

from npuready.deploy.calibration import read_folder, split
from npuready.errors import InputError

SHAPE = (1, 1, 4, 4)


def _npy(path, value, shape=SHAPE):
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, np.full(shape, value, np.float32))


def test_flat_npy_folder_is_unlabelled_and_accepts_missing_batch(tmp_path):
    _npy(tmp_path / "b.npy", 2.0)
    _npy(tmp_path / "a.npy", 1.0, SHAPE[1:])
    data = read_folder(tmp_path, SHAPE)
    assert data.files == ("a.npy", "b.npy") and data.labels is None and data.kind == "npy"
    assert data.x.shape == (2, *SHAPE) and data.x[0].max() == 1.0 and data.x[1].max() == 2.0


def test_class_subfolders_give_labels_and_a_stratified_split(tmp_path):
    for c in range(3):
        for i in range(4):
            _npy(tmp_path / str(c) / f"{i}.npy", float(c))
    data = read_folder(tmp_path, SHAPE)
    assert data.label_source == "sub-folders"
    assert data.class_labels.tolist() == [0] * 4 + [1] * 4 + [2] * 4
    sp = split(data, 6, 100, seed=0)
    assert sorted(data.class_labels[sp.calibration].tolist()) == [0, 0, 1, 1, 2, 2]
    assert len(sp.parity) == 6 and not set(sp.calibration) & set(sp.parity) and not sp.overlap
    assert sp.to_dict(data)["calibration_per_class"] == {"0": 2, "1": 2, "2": 2}


def test_too_few_files_reuse_everything_and_say_so(tmp_path):
    for i in range(3):
        _npy(tmp_path / f"{i}.npy", float(i))
    sp = split(read_folder(tmp_path, SHAPE), 10, 2)
    assert sp.calibration.tolist() == [0, 1, 2] and sp.parity.tolist() == [0, 1] and sp.overlap


def test_manifest_layout(tmp_path):
    _npy(tmp_path / "s0.npy", 0.0)
    _npy(tmp_path / "s1.npy", 1.0)
    (tmp_path / "manifest.json").write_text(json.dumps({"samples": [{"file": "s0.npy", "label": 3},
                                                                     {"file": "s1.npy", "label": 7}]}))
    data = read_folder(tmp_path, SHAPE)
    assert data.label_source == "manifest.json" and data.class_labels.tolist() == [3, 7]


def test_images_need_a_spec_and_use_it(tmp_path):
    from PIL import Image

    from npuready.preprocess.spec import PreprocessSpec

    for c in ("cat", "dog"):
        (tmp_path / c).mkdir()
        Image.fromarray(np.full((8, 8, 3), 200 if c == "cat" else 50, np.uint8)).save(tmp_path / c / "x.png")
    with pytest.raises(InputError, match="holds images; give --preset"):
        read_folder(tmp_path, (1, 3, 8, 8))
    spec = PreprocessSpec.from_dict({"layout": "NCHW", "color": "RGB", "dtype": "float32", "scale": 1 / 255,
                                     "resize": [8, 8]}, name="t")
    data = read_folder(tmp_path, (1, 3, 8, 8), spec)
    assert data.kind == "image" and data.labels == ("cat", "dog") and data.class_labels is None
    assert data.x.shape == (2, 1, 3, 8, 8)
    assert np.allclose(data.x[0], np.float32(200) * np.float32(1 / 255))


@pytest.mark.parametrize("setup, message", [
    (lambda p: None, "no .npy tensors or images"),
    (lambda p: _npy(p / "a.npy", 0.0, (1, 1, 5, 5)), r"shape \[1, 1, 5, 5\] does not match the model input"),
    (lambda p: (_npy(p / "a.npy", 0.0), _npy(p / "c" / "b.npy", 0.0)), "mix of files at different depths"),
])
def test_unusable_folders_raise_input_error(tmp_path, setup, message):
    setup(tmp_path)
    with pytest.raises(InputError, match=message):
        read_folder(tmp_path, SHAPE)


def test_missing_folder(tmp_path):
    with pytest.raises(InputError, match="not a folder"):
        read_folder(tmp_path / "nope", SHAPE)


def test_an_npy_with_trailing_gigabytes_is_refused_before_it_is_hashed(tmp_path, monkeypatch):
    """A 1×1×4×4 header in front of a sparse 10 GiB file: refused from its size, never read whole."""
    from pathlib import Path

    path = tmp_path / "big.npy"
    _npy(path, 1.0)
    with open(path, "r+b") as f:
        f.truncate(10 << 30)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail(f"read {self} whole"))
    with pytest.raises(InputError, match=r"big.npy: 10,737,418,240 bytes, but its header declares \[1, 1, 4, 4\] "
                                         r"float32 \(192 bytes with the header\)"):
        read_folder(tmp_path, SHAPE)


def test_an_oversized_image_is_refused_before_it_is_hashed(tmp_path):
    from npuready.inputs import budget

    with open(tmp_path / "a.png", "wb") as f:
        f.truncate(budget.MAX_ARRAY_BYTES + 1)
    with pytest.raises(InputError, match="above the 1,073,741,824-byte budget for one calibration file"):
        read_folder(tmp_path, SHAPE, spec=object())
