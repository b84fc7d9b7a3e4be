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


@pytest.mark.parametrize("name, why", [
    ("CON", "CON is a Windows device name"), ("con", "CON is a Windows device name"),
    ("LPT1", "LPT1 is a Windows device name"), ("nul", "NUL is a Windows device name"),
    ("Aux.onnx", "AUX is a Windows device name"), ("com9", "COM9 is a Windows device name"),
    ("a.", "ends with a dot, which Windows drops (it would alias 'a')"),
    ("index.json.", "ends with a dot"),
])
def test_names_that_alias_on_windows_are_refused(name, why):
    with pytest.raises(InputError) as exc:
        check_name(name)
    assert why in str(exc.value)


@pytest.mark.parametrize("name", ["console", "com10", "lpt", "nullable", "a.b"])
def test_names_near_the_device_names_are_fine(name):
    assert check_name(name) == name


def test_a_case_only_variant_of_an_existing_name_is_refused(tmp_path):
    from npuready.deploy.names import case_clash
    from npuready.deploy.registry import Registry

    case_clash("model", {"model", "other"})  # the same name again is a replacement, not a clash
    with pytest.raises(InputError, match="'Model': differs only in case from 'model', already in the registry"):
        case_clash("Model", {"model"})
    reg = Registry(tmp_path / "reg")
    src = tmp_path / "float.onnx"
    src.write_bytes(b"x")
    reg.accept("model", "edge-10", {"float": src}, {}, "cmd")
    reg.check_new_name("model", "edge-10")
    with pytest.raises(InputError, match="differs only in case from 'model'"):
        reg.check_new_name("MODEL")
    with pytest.raises(InputError, match="target name 'Edge-10': differs only in case"):
        reg.accept("model", "Edge-10", {"float": src}, {}, "cmd")
    assert [m["name"] for m in reg.read()["models"]] == ["model"]
    assert sorted(p.name for p in (tmp_path / "reg").iterdir() if not p.name.startswith(".")) == ["index.json", "model"]
