"""Calibration inputs for a report's quantize stage.

``source`` is anything ``npuready quantize --calibration`` accepts (fashion-mnist:train|test, a
calibration folder with manifest.json, an .npz with 'x'), or a folder of photos (.png/.jpg/.jpeg)
read through a preprocessing ``preset`` (a name, zoo:<model> or a spec JSON file) bound to the model's input size.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from npuready.errors import InputError
from npuready.graph import Graph

PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg")


def _photos(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)


def calibration_inputs(source: str, preset: str | None, graph: Graph,
                       n: int) -> tuple[np.ndarray, np.ndarray | None, str]:
    """(x, labels or None, description) — at most ``n`` inputs shaped like the model's first input."""
    shape = tuple(d if isinstance(d, int) else 1 for d in (graph.inputs[0].shape or ()))
    folder = Path(source)
    if folder.is_dir() and not (folder / "manifest.json").exists():
        photos = _photos(folder)
        if not photos:
            raise InputError(f"{folder}: no manifest.json and no .png/.jpg photos; give a calibration folder "
                             "or a folder of photos with --preset")
        if preset is None:
            raise InputError(f"{folder}: a folder of photos needs --preset to say how to turn them into tensors "
                             "(see 'npuready preprocess presets')")
        from npuready.preprocess import apply, bind_to_model, resolve_spec

        spec = bind_to_model(resolve_spec(preset), graph.model)
        x = np.stack([apply(spec, str(p)) for p in photos[:n]]).astype(np.float32)
        x = x.reshape((len(x),) + tuple(shape[1:]))
        return x, None, f"{len(x)} photos from {folder} through preset {preset}"
    from npuready.quant.inputs import load_inputs

    data = load_inputs(source, n, shape)
    return data.x, data.labels, f"{len(data.x)} inputs from {data.source}"
