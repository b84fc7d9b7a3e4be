import json

import pytest

from npuready.errors import InputError
from npuready.preprocess.presets import PRESETS
from npuready.preprocess.resolve import resolve_spec


def test_preset_names_resolve_to_the_registry_object():
    assert resolve_spec("yolo_640") is PRESETS["yolo_640"]


def test_spec_json_file(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"color": "BGR", "resize": [32, 32], "scale": 0.5}))
    spec = resolve_spec(str(path))
    assert (spec.name, spec.color, spec.resize, spec.scale) == ("mine", "BGR", (32, 32), 0.5)


def test_bad_names_and_files(tmp_path):
    with pytest.raises(InputError, match="preset 'yolo': unknown"):
        resolve_spec("yolo")
    with pytest.raises(InputError, match="spec file .*nope.json: no such JSON file"):
        resolve_spec(str(tmp_path / "nope.json"))
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(InputError, match=r"list\.json: \(top level\): expected an object, got \[1, 2\]"):
        resolve_spec(str(tmp_path / "list.json"))
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(InputError, match=r"broken\.json: invalid JSON at line 1 column 2"):
        resolve_spec(str(tmp_path / "broken.json"))
