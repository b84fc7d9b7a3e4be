"""Spec files are validated (types, ranges, finiteness, size budget) before a spec is built."""
from __future__ import annotations

import json

import pytest

from npuready.errors import InputError
from npuready.preprocess.resolve import resolve_spec

BASE = {"color": "RGB", "dtype": "float32", "layout": "NCHW", "resize": [32, 32], "scale": 1 / 255,
        "mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]}


def _spec(tmp_path, text: str):
    path = tmp_path / "s.json"
    path.write_text(text)
    return resolve_spec(str(path))


def test_valid_file(tmp_path):
    assert _spec(tmp_path, json.dumps(BASE)).resize == (32, 32)


@pytest.mark.parametrize("change, message", [
    ({"mean": 0.5}, r"mean: "),
    ({"mean": "x"}, r"mean: "),
    ({"letterbox": [32, 32], "resize": None, "pad_value": None}, r"pad_value: expected an integer, got None"),
    ({"letterbox": [32, 32], "resize": None, "pad_value": "x"}, r"pad_value: expected an integer, got 'x'"),
    ({"scale": "x"}, r"scale: "),
    ({"resize": [40000, 40000]}, r"resize\[0\]: 40000 is outside the allowed range \(maximum 8192\)"),
    ({"resize": True}, r"resize: "),
    ({"std": [0, 1, 1]}, r"std\[0\]: 0 is outside the allowed range"),
    ({"colour": "RGB"}, r"\(top level\): unknown field 'colour'; known: center_crop, color"),
])
def test_bad_fields(tmp_path, change, message):
    with pytest.raises(InputError, match=r"spec file .*s\.json: " + message):
        _spec(tmp_path, json.dumps({**BASE, **change}))


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_literals(tmp_path, literal):
    with pytest.raises(InputError, match=f"{literal} is not a JSON number; numbers must be finite"):
        _spec(tmp_path, json.dumps(BASE).replace('"std": [0.25', f'"std": [{literal}'))


def test_not_an_object(tmp_path):
    with pytest.raises(InputError, match=r"\(top level\): expected an object, got \[\]"):
        _spec(tmp_path, "[]")
