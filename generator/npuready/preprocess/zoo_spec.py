"""Input specs of the project's own zoo models, read from ``zoo/zoo.json`` (written by the trainer).

The mean/std of the Fashion-MNIST classifiers are never re-typed here: the trainer records
them with each model's input shape, and this module turns one entry into a spec
(GRAY for 1-channel inputs, RGB otherwise; resize to the input size; x/255; mean/std when
they are not the identity). Accepted layouts of the file: ``{"models": {name: entry}}``,
``{"models": [{"name": ..., ...}]}`` or ``{name: entry}``, each entry with ``input_shape``
(NCHW), ``mean`` and ``std``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from npuready.errors import InputError
from npuready.preprocess.spec import PreprocessSpec


def zoo_json_path() -> Path:
    from npuready.paths import zoo_dir

    return zoo_dir() / "zoo.json"


def _entries(data: Any) -> dict[str, Mapping[str, Any]]:
    models = data.get("models", data) if isinstance(data, Mapping) else data
    if isinstance(models, list):
        return {str(m.get("name")): m for m in models if isinstance(m, Mapping)}
    if isinstance(models, Mapping):
        return {str(k): v for k, v in models.items() if isinstance(v, Mapping) and "input_shape" in v}
    return {}


def spec_from_entry(name: str, entry: Mapping[str, Any]) -> PreprocessSpec:
    try:
        n, c, h, w = (int(d) for d in entry["input_shape"])
        mean = tuple(float(v) for v in entry.get("mean", ()))
        std = tuple(float(v) for v in entry.get("std", ()))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"zoo entry {name!r}: needs input_shape [N,C,H,W], mean and std ({exc})") from None
    if n != 1 or c not in (1, 3):
        raise InputError(f"zoo entry {name!r}: input_shape {[n, c, h, w]}; expected 1 x (1|3) x H x W")
    identity = all(m == 0.0 for m in mean) and all(s == 1.0 for s in std)
    return PreprocessSpec(
        name=f"zoo:{name}", color="GRAY" if c == 1 else "RGB", dtype="float32", layout="NCHW",
        resize=(h, w), interpolation="bilinear", scale=1.0 / 255.0,
        mean=None if identity or not mean else mean, std=None if identity or not std else std,
        description=f"npuready zoo model {name}: float32 {n}x{c}x{h}x{w}, x/255"
                    + ("" if identity else ", (x - mean) / std") + ".",
        source="zoo/zoo.json (written by npuready train)")


def zoo_spec(name: str, path: str | Path | None = None) -> PreprocessSpec:
    """The input spec of zoo model ``name`` from ``zoo/zoo.json`` (or ``path``)."""
    file = Path(path) if path else zoo_json_path()
    if not file.is_file():
        raise InputError(f"{file}: not found; the zoo contract is written by 'npuready train' "
                         "(or give a spec JSON file)")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{file}: not readable JSON ({exc})") from None
    entries = _entries(data)
    if name not in entries:
        raise InputError(f"{file}: no model {name!r}; models: {', '.join(sorted(entries)) or 'none'}")
    return spec_from_entry(name, entries[name])
