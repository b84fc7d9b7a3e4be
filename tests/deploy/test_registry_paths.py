"""No deploy writes outside the registry, whatever the name or the model file name (CLI, exit 2, one line)."""
from __future__ import annotations

import shutil

import pytest

from deploy_models import calib_folder, classifier, save
from npuready.cli import main


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    root = tmp_path_factory.mktemp("names")
    m = classifier("good")
    save(m, root / "good.onnx")
    shutil.copyfile(root / "good.onnx", root / "...onnx")
    calib_folder(root / "calib", m, n=12)
    return root


def _tree(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


@pytest.mark.parametrize("model, extra, message", [
    ("good.onnx", ["--name", "../../esc"], "registry name '../../esc': starts with a dot"),
    ("good.onnx", ["--name", "/abs/path"], "registry name '/abs/path': contains a path separator"),
    ("good.onnx", ["--name", "a/b"], "registry name 'a/b': contains a path separator"),
    ("good.onnx", ["--name", "index.json"], "registry name 'index.json': reserved by the registry"),
    ("...onnx", [], "registry name '..' (from the model file name ...onnx): starts with a dot"),
])
def test_bad_names_write_nothing(work, tmp_path, capsys, model, extra, message):
    before = _tree(work)
    code = main(["deploy", str(work / model), "--calib", str(work / "calib"), "--registry", str(tmp_path / "reg"),
                 "--calib-images", "4", *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert _tree(work) == before and not (tmp_path / "reg").exists()
    assert not (tmp_path.parent / "esc").exists() and not (tmp_path / "esc").exists()


def test_symlinked_name_folder_is_refused(work, tmp_path, capsys):
    reg, outside = tmp_path / "reg", tmp_path / "outside"
    reg.mkdir()
    outside.mkdir()
    (reg / "good").symlink_to(outside)
    code = main(["deploy", str(work / "good.onnx"), "--calib", str(work / "calib"), "--registry", str(reg),
                 "--calib-images", "4"])
    err = capsys.readouterr().err
    assert code == 2 and "outside the registry" in err and len(err.strip().splitlines()) == 1
    assert list(outside.iterdir()) == []
    assert not (reg / "index.json").exists()
