"""Registry names: a fixed character set, no separators, no leading dot, no reserved names; paths stay inside."""
from __future__ import annotations

import pytest

from npuready.deploy.names import check_name, inside
from npuready.errors import InputError


@pytest.mark.parametrize("name", ["resnet20", "tiny_cnn-v2", "m.1", "A", "x" * 128])
def test_valid_names(name):
    assert check_name(name) == name


@pytest.mark.parametrize("name, why", [
    ("../../esc", "starts with a dot"), ("..", "starts with a dot"), (".hidden", "starts with a dot"),
    ("/abs/path", "contains a path separator"), ("a/b", "contains a path separator"),
    ("a\\b", "contains a path separator"), ("", "is empty"), ("a b", "uses characters outside"),
    ("x" * 129, "longer than 128"), ("-flag", "uses characters outside"),
    ("index.json", "reserved by the registry"), ("INDEX.JSON", "reserved by the registry"),
])
def test_invalid_names(name, why):
    with pytest.raises(InputError) as exc:
        check_name(name)
    assert why in str(exc.value)


def test_inside_follows_symlinks(tmp_path):
    root = tmp_path / "reg"
    (root / "ok").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (root / "link").symlink_to(tmp_path / "outside")
    assert inside(root, root / "ok" / "x") == (root / "ok" / "x").resolve()
    with pytest.raises(InputError, match="outside the registry"):
        inside(root, root / "link" / "edge-10")
    with pytest.raises(InputError, match="outside the registry"):
        inside(root, root / ".." / "esc")
