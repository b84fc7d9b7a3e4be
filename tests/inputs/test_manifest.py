"""read_manifest: JSON Schema validation with one line naming the file, the field and the problem."""
from __future__ import annotations

import json

import numpy as np
import pytest

from npuready.errors import InputError
from npuready.inputs.manifest import read_manifest


def _folder(tmp_path, doc, raw: bytes | None = None):
    folder = tmp_path / "calib"
    folder.mkdir()
    np.save(folder / "a.npy", np.zeros((1, 2), np.float32))
    (folder / "manifest.json").write_bytes(raw if raw is not None else json.dumps(doc).encode())
    return folder


def test_valid_manifest(tmp_path):
    m = read_manifest(_folder(tmp_path, {"samples": [{"file": "a.npy", "label": 3}]}))
    assert m.relative == ("a.npy",) and m.labels == (3,) and m.files[0].name == "a.npy"


@pytest.mark.parametrize("doc, message", [
    ([], r"manifest\.json: \(top level\): expected an object, got \[\]"),
    ({}, r"manifest\.json: \(top level\): 'samples' is missing"),
    ({"samples": []}, r"manifest\.json: samples: needs at least 1 entry, got 0"),
    ({"samples": [{"label": 1}]}, r"manifest\.json: samples\[0\]: 'file' is missing"),
    ({"samples": [{"file": 42}]}, r"manifest\.json: samples\[0\]\.file: expected a string, got 42"),
    ({"samples": [{"file": "a.npy", "label": 2**63}]},
     r"samples\[0\]\.label: 9223372036854775808 is outside the allowed range"),
    ({"samples": [{"file": "a.npy", "label": -1}]}, r"samples\[0\]\.label: -1 is outside the allowed range"),
    ({"samples": [{"file": "a.npy"}, {"file": "../a.npy"}]}, r"samples\[1\]\.file: expected a path inside calib/"),
    ({"samples": [{"file": "/etc/passwd"}]},
     r"samples\[0\]\.file: expected a path inside calib/, got the absolute path"),
    ({"samples": [{"file": "missing.npy"}]}, r"samples\[0\]\.file: no such file"),
])
def test_bad_manifests(tmp_path, doc, message):
    with pytest.raises(InputError, match=message):
        read_manifest(_folder(tmp_path, doc))


def test_invalid_json_and_bytes(tmp_path):
    with pytest.raises(InputError, match=r"invalid JSON at line 1 column 2"):
        read_manifest(_folder(tmp_path, None, raw=b"{x"))


def test_non_utf8(tmp_path):
    with pytest.raises(InputError, match=r"not UTF-8 text \(byte 0\)"):
        read_manifest(_folder(tmp_path, None, raw=b"\xff\xfe{}"))


def test_device_entry_is_never_opened(tmp_path):
    folder = _folder(tmp_path, {"samples": [{"file": "dev.npy"}]})
    (folder / "dev.npy").symlink_to("/dev/zero")
    with pytest.raises(InputError, match=r"samples\[0\]\.file: resolves to /dev/zero, outside"):
        read_manifest(folder)
