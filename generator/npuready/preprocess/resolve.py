"""Turn what a user typed (preset name, ``zoo:<model>``, spec JSON file) into a spec."""
from __future__ import annotations

import json
from pathlib import Path

from npuready.errors import InputError
from npuready.preprocess.presets import PRESETS, preset
from npuready.preprocess.spec import PreprocessSpec
from npuready.preprocess.zoo_spec import zoo_spec


def resolve_spec(text: str) -> PreprocessSpec:
    """A preset name, ``zoo:<model>`` (from zoo/zoo.json) or the path of a spec JSON file."""
    if text in PRESETS:
        return PRESETS[text]
    if text.startswith("zoo:"):
        return zoo_spec(text[4:])
    path = Path(text)
    if path.suffix == ".json":
        if not path.is_file():
            raise InputError(f"spec file {path}: not found")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"spec file {path}: not readable JSON ({exc})") from None
        if not isinstance(data, dict):
            raise InputError(f"spec file {path}: expected a JSON object of spec fields")
        return PreprocessSpec.from_dict(data, name=path.stem)
    return preset(text)  # raises with the list of presets
