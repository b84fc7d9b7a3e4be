"""Turn what a user typed (preset name, ``zoo:<model>``, spec JSON file) into a spec."""
from __future__ import annotations

from pathlib import Path

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
        from npuready.inputs.json_file import read_json
        from npuready.preprocess.spec_schema import SCHEMA

        return PreprocessSpec.from_dict(read_json(path, SCHEMA, f"spec file {path}"), name=path.stem)
    return preset(text)  # raises with the list of presets
