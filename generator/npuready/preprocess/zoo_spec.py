"""Input specs of the project's own zoo models, read from ``zoo/zoo.json`` (written by the trainer).

The mean/std of the Fashion-MNIST classifiers are never re-typed here: the trainer records
them with each model's input contract, and this module turns one entry into a spec
(GRAY for 1-channel inputs, RGB otherwise; resize to the input size; scale; mean/std when
they are not the identity). An entry whose contract names a ``preset`` (the ``*_fm64`` library
architectures) gets that preset itself. The trainer writes ``{"models": {name: {"input": {...}}}}``
(npuready.models.record); flat entries and a list of named entries are read too.
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
        return {str(k): v for k, v in models.items() if isinstance(v, Mapping)}
    return {}


def spec_from_entry(name: str, entry: Mapping[str, Any]) -> PreprocessSpec:
    """Spec of one zoo entry: ``{"input": {"name", "shape", "layout", "scale", "mean", "std"}}``
    (the trainer's manifest) or a flat ``{"input_shape", "mean", "std"}``."""
    contract = entry.get("input") if isinstance(entry.get("input"), Mapping) else entry
    if isinstance(contract.get("preset"), str):  # the contract IS a preset: one spec, never re-derived
        from npuready.preprocess.presets import preset

        return preset(contract["preset"])
    try:
        n, c, h, w = (int(d) for d in contract.get("shape", contract.get("input_shape")))
        mean = tuple(float(v) for v in contract.get("mean", ()))
        std = tuple(float(v) for v in contract.get("std", ()))
        scale = float(contract.get("scale", 1.0 / 255.0))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"zoo entry {name!r}: needs an input shape [N,C,H,W], mean and std ({exc})") from None
    if contract.get("layout", "NCHW") != "NCHW" or n != 1 or c not in (1, 3):
        raise InputError(f"zoo entry {name!r}: input {contract.get('layout', 'NCHW')} {[n, c, h, w]}; "
                         "expected NCHW 1 x (1|3) x H x W")
    identity = all(m == 0.0 for m in mean) and all(s == 1.0 for s in std)
    image_input = contract.get("name") if isinstance(contract.get("name"), str) else None
    return PreprocessSpec(
        name=f"zoo:{name}", color="GRAY" if c == 1 else "RGB", dtype="float32", layout="NCHW",
        resize=(h, w), interpolation="bilinear", scale=scale,
        mean=None if identity or not mean else mean, std=None if identity or not std else std,
        image_input=image_input if contract is not entry else None,
        description=f"npuready zoo model {name}: float32 {n}x{c}x{h}x{w}, x*{scale:.6g}"
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
