import gzip
import shutil

import numpy as np
import pytest

from npuready.data import debian_fashion_mnist as fm
from npuready.errors import InputError

INSTALLED = all((fm.DEFAULT_DIR / name).is_file() for name in fm.SHA256)
needs_package = pytest.mark.skipif(not INSTALLED, reason="Debian package dataset-fashion-mnist not installed")


def test_missing_folder_names_the_debian_package(tmp_path, monkeypatch):
    monkeypatch.setenv(fm.ENV_VAR, str(tmp_path / "nowhere"))
    with pytest.raises(InputError) as err:
        fm.fashion_mnist("test")
    assert "apt-get install dataset-fashion-mnist" in str(err.value)
    assert "t10k-images-idx3-ubyte.gz" in str(err.value)


def test_wrong_hash_is_refused(tmp_path, monkeypatch):
    for name in fm.SHA256:  # well-formed gzip IDX files with the wrong content
        (tmp_path / name).write_bytes(gzip.compress(bytes([0, 0, 8, 1, 0, 0, 0, 1, 7])))
    monkeypatch.setenv(fm.ENV_VAR, str(tmp_path))
    with pytest.raises(InputError, match="SHA-256 .* does not match the pinned"):
        fm.fashion_mnist("train")


def test_unknown_split():
    with pytest.raises(InputError, match="split 'valid': unknown"):
        fm.fashion_mnist("valid")


def test_parse_idx_reads_header_and_payload():
    raw = bytes([0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 3]) + bytes(range(6))
    array = fm.parse_idx(raw)
    assert array.shape == (2, 1, 3) and array.dtype == np.uint8
    assert array.ravel().tolist() == [0, 1, 2, 3, 4, 5]


def test_parse_idx_rejects_bad_magic_and_length():
    with pytest.raises(InputError, match="bad magic"):
        fm.parse_idx(bytes([0, 0, 9, 1, 0, 0, 0, 1, 0]))
    with pytest.raises(InputError, match="payload is 1 bytes, header says 2"):
        fm.parse_idx(bytes([0, 0, 8, 1, 0, 0, 0, 2, 0]))


@needs_package
def test_real_files_load_with_expected_shapes_and_balance():
    images, labels = fm.fashion_mnist("test")
    assert images.shape == (10000, 28, 28) and images.dtype == np.uint8
    assert labels.dtype == np.int64
    assert np.bincount(labels).tolist() == [1000] * 10


@needs_package
def test_copied_files_pass_the_hash_check(tmp_path, monkeypatch):
    for name in fm.FILES["test"]:
        shutil.copy(fm.DEFAULT_DIR / name, tmp_path / name)
    monkeypatch.setenv(fm.ENV_VAR, str(tmp_path))
    images, labels = fm.fashion_mnist("test")
    assert len(images) == len(labels) == 10000
