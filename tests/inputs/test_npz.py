"""read_npz: zip checks, per-member budget and headers before decoding, no object arrays."""
from __future__ import annotations

import zipfile

import numpy as np
import pytest

from npuready.errors import InputError
from npuready.inputs.npz import read_npz


def test_reads_required_and_optional(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.ones((2, 3), np.float32), y=np.array([0, 1]))
    out = read_npz(tmp_path / "d.npz", required=("x",), optional=("y", "z"))
    assert sorted(out) == ["x", "y"] and out["x"].shape == (2, 3)


def test_not_a_zip(tmp_path):
    (tmp_path / "d.npz").write_bytes(b"hello")
    with pytest.raises(InputError, match=r"not an \.npz archive \(not a zip file\)"):
        read_npz(tmp_path / "d.npz", required=("x",))


def test_missing_member(tmp_path):
    np.savez(tmp_path / "d.npz", a=np.ones(2))
    with pytest.raises(InputError, match=r"needs an array 'x' \(has \['a'\]\)"):
        read_npz(tmp_path / "d.npz", required=("x",))


def test_object_member(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.array([None, 1], dtype=object))
    with pytest.raises(InputError, match=r"'x': dtype object holds Python objects"):
        read_npz(tmp_path / "d.npz", required=("x",))


def test_string_member(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.array(["a"]))
    with pytest.raises(InputError, match="is not numeric"):
        read_npz(tmp_path / "d.npz", required=("x",))


def test_zip_bomb_is_not_unpacked(tmp_path):
    path = tmp_path / "bomb.npz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("x.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (1 << 21,)})
            chunk = b"\0" * (1 << 20)
            for _ in range(8):
                f.write(chunk)
    with pytest.raises(InputError, match="refusing to unpack"):
        read_npz(path, required=("x",))


def test_non_finite_x(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.array([np.nan], np.float32))
    with pytest.raises(InputError, match=r"'x': contains NaN or infinity"):
        read_npz(tmp_path / "d.npz", required=("x",), finite=("x",))


def test_empty_x(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.zeros((0, 3), np.float32))
    with pytest.raises(InputError, match="empty array"):
        read_npz(tmp_path / "d.npz", required=("x",))
