"""The registry index: accept, reject, replace, and refuse broken indexes."""
from __future__ import annotations

import pytest

from npuready.deploy.registry import Registry
from npuready.errors import InputError
from npuready.experiments.context import sha256_file


def _file(path, data: bytes):
    path.write_bytes(data)
    return path


def test_accept_copies_files_and_records_hashes(tmp_path):
    reg = Registry(tmp_path / "reg")
    f = _file(tmp_path / "m.onnx", b"model-1")
    entry = reg.accept("m", "edge-10", {"float": f}, {"lint": {"status": "passed"}}, "npuready deploy m.onnx")
    version = entry["version"]
    assert entry["files"]["float"] == {"path": f"m/edge-10/{version}/float.onnx", "sha256": sha256_file(f)}
    assert entry["model_sha256"] == sha256_file(f)
    assert reg.lookup("m", "edge-10") == entry
    assert (tmp_path / "reg" / "m" / "edge-10" / version / "float.onnx").read_bytes() == b"model-1"
    assert sorted(p.name for p in (tmp_path / "reg").iterdir() if p.name != ".lock") == [".staging", "index.json", "m"]
    assert list((tmp_path / "reg" / ".staging").iterdir()) == []


def test_accept_replaces_same_name_and_target_and_clears_its_rejection(tmp_path):
    reg = Registry(tmp_path / "reg")
    f = _file(tmp_path / "m.onnx", b"model-2")
    reg.reject("m", "edge-10", "parity", "gate failed", sha256_file(f), "cmd", {"parity": {}})
    reg.reject("m", "edge-10", "parity", "gate failed again", sha256_file(f), "cmd")
    assert [r["reason"] for r in reg.read()["rejections"]] == ["gate failed again"]
    first = reg.accept("m", "edge-10", {"float": f}, {}, "cmd")
    second = reg.accept("m", "edge-10", {"float": f}, {}, "cmd2")
    doc = reg.read()
    assert [m["command"] for m in doc["models"]] == ["cmd2"] and doc["rejections"] == []
    # the replaced version's folder is gone once the index names the new one
    assert [p.name for p in (tmp_path / "reg" / "m" / "edge-10").iterdir()] == [second["version"]]
    assert first["version"] != second["version"]


def test_broken_index_is_an_input_error(tmp_path):
    (tmp_path / "index.json").write_text("{not json")
    with pytest.raises(InputError, match="registry index is not valid JSON"):
        Registry(tmp_path).read()
    (tmp_path / "index.json").write_text('{"version": 99, "models": []}')
    with pytest.raises(InputError, match="not an npuready registry index"):
        Registry(tmp_path).read()
