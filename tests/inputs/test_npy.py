"""read_npy: header checked against the budget before allocation; only regular, numeric, finite arrays."""
from __future__ import annotations

import os

import numpy as np
import pytest

from npuready.errors import InputError
from npuready.inputs.npy import read_npy


def _write(path, arr):
    np.save(path, arr)
    return path


def test_reads_a_valid_array(tmp_path):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert np.array_equal(read_npy(_write(tmp_path / "a.npy", x)), x)


def test_empty_file(tmp_path):
    (tmp_path / "e.npy").write_bytes(b"")
    with pytest.raises(InputError, match=r"e\.npy: empty file \(0 bytes\)"):
        read_npy(tmp_path / "e.npy")


def test_header_claiming_a_huge_array_is_refused_before_allocation(tmp_path):
    path = tmp_path / "huge.npy"
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (10**12,)})
        f.write(b"\0" * 64)
    with pytest.raises(InputError, match=r"header declares shape \[1000000000000\] float32 = 4,000,000,000,000 bytes"):
        read_npy(path)


def test_truncated_data_is_named(tmp_path):
    path = _write(tmp_path / "t.npy", np.zeros(1000, np.float32))
    data = path.read_bytes()
    path.write_bytes(data[:-100])
    with pytest.raises(InputError, match="the file is truncated"):
        read_npy(path)


@pytest.mark.parametrize("arr, words", [
    (np.array([1 + 2j], np.complex64), "is complex"),
    (np.array(["a", "b"]), "is not numeric"),
    (np.zeros(2, dtype=[("a", "f4")]), "records"),
])
def test_non_numeric_dtypes(tmp_path, arr, words):
    with pytest.raises(InputError, match=words):
        read_npy(_write(tmp_path / "x.npy", arr))


def test_object_arrays_are_never_unpickled(tmp_path):
    path = tmp_path / "o.npy"
    np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(InputError, match="holds Python objects"):
        read_npy(path)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_values(tmp_path, value):
    with pytest.raises(InputError, match=r"contains NaN or infinity \(first at flat index 2\)"):
        read_npy(_write(tmp_path / "n.npy", np.array([0, 1, value, 3], np.float32)))


def test_empty_array(tmp_path):
    with pytest.raises(InputError, match=r"empty array \(shape \[0, 3\]\)"):
        read_npy(_write(tmp_path / "z.npy", np.zeros((0, 3), np.float32)))


def test_fifo_is_not_opened(tmp_path):
    fifo = tmp_path / "pipe.npy"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a FIFO, expected a regular .npy file"):
        read_npy(fifo)  # would block forever if it were opened


def test_device_is_not_opened():
    with pytest.raises(InputError, match="is a character device"):
        read_npy("/dev/zero")


def test_garbage_bytes(tmp_path):
    (tmp_path / "g.npy").write_bytes(b"not an array at all")
    with pytest.raises(InputError, match=r"g\.npy: not a \.npy array"):
        read_npy(tmp_path / "g.npy")
