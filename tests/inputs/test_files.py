"""regular_file / relative_inside: only regular files, only inside the folder."""
from __future__ import annotations

import pytest

from npuready.errors import InputError
from npuready.inputs.files import regular_file, relative_inside


def test_symlink_out_of_the_folder_is_refused(tmp_path):
    inside = tmp_path / "calib"
    inside.mkdir()
    (tmp_path / "secret.npy").write_bytes(b"x")
    (inside / "link.npy").symlink_to(tmp_path / "secret.npy")
    with pytest.raises(InputError, match="outside .*calib; refusing to read it"):
        regular_file(inside / "link.npy", inside=inside)


def test_symlink_inside_the_folder_is_fine(tmp_path):
    (tmp_path / "a.npy").write_bytes(b"x")
    (tmp_path / "b.npy").symlink_to(tmp_path / "a.npy")
    assert regular_file(tmp_path / "b.npy", inside=tmp_path) == (tmp_path / "a.npy").resolve()


@pytest.mark.parametrize("rel, words", [
    ("../x.npy", r"got '\.\./x\.npy' \(no '\.\.'\)"),
    ("a/../../x.npy", "no '..'"),
    ("/etc/passwd", "got the absolute path '/etc/passwd'"),
    ("C:/x.npy", "absolute path"),
    (42, "expected a path inside calib/, got 42"),
    ("", "got ''"),
])
def test_manifest_paths_must_stay_inside(tmp_path, rel, words):
    folder = tmp_path / "calib"
    folder.mkdir()
    with pytest.raises(InputError, match=words):
        relative_inside(folder, rel, "m.json: samples[0].file")


def test_missing_and_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        regular_file(tmp_path / "nope")
    with pytest.raises(InputError, match="is a folder"):
        regular_file(tmp_path)
