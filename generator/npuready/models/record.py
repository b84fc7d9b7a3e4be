"""``zoo/zoo.json``: the machine-readable zoo manifest (input contract, classes, measured results).

Read-modify-write under a lock so two trainers finishing together cannot lose an entry.
"""
from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from npuready.atomic import write_json
from npuready.data.debian_fashion_mnist import CLASSES
from npuready.data.sha import sha256_file
from npuready.models.onnx_export import OPSET, output_names
from npuready.models.zoo import ZooSpec

MANIFEST = "zoo.json"


def input_contract(spec: ZooSpec) -> dict:
    _, channels, height, width = spec.input_shape
    if spec.preset is not None:
        from npuready.preprocess.presets import preset

        p = preset(spec.preset)
        return {
            "name": "input", "shape": list(spec.input_shape), "dtype": p.dtype, "layout": p.layout,
            "colour": p.color, "scale": p.scale, "mean": list(p.mean), "std": list(p.std),
            "preset": p.name, "resize": list(p.output_size), "interpolation": p.interpolation,
            "formula": "x = uint8 grey 28×28 replicated to RGB and resized to "
                       f"{height}×{width} ({p.interpolation}); (x / 255 - mean) / std",
        }
    return {
        "name": "input", "shape": list(spec.input_shape), "dtype": "float32", "layout": "NCHW",
        "colour": "grey" if channels == 1 else "RGB",
        "scale": 1 / 255, "mean": list(spec.mean), "std": list(spec.std),
        "formula": "(x / 255 - mean) / std, x = uint8 pixels",
    }


def model_entry(spec: ZooSpec, folder: Path, metrics: dict) -> dict:
    """One manifest entry: contract + files with hashes + measured metrics (``evidence: measured``)."""
    return {
        "kind": spec.kind, "description": spec.description,
        "input": input_contract(spec), "outputs": output_names(spec), "opset": OPSET,
        "classes": list(CLASSES), "target": spec.target,
        "checkpoint": f"{spec.name}.pt", "checkpoint_sha256": sha256_file(folder / f"{spec.name}.pt"),
        "onnx": f"{spec.name}.onnx", "onnx_sha256": sha256_file(folder / f"{spec.name}.onnx"),
        "evidence": "measured", **metrics,
    }


def update_manifest(folder: str | Path, name: str, entry: dict) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lock_path = folder / ".zoo.json.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = folder / MANIFEST
        manifest = json.loads(path.read_text()) if path.is_file() else {"models": {}}
        manifest.setdefault("models", {})[name] = entry
        manifest["models"] = dict(sorted(manifest["models"].items()))
        write_json(path, manifest)
    os.unlink(lock_path) if lock_path.exists() else None
    return path


def read_manifest(folder: str | Path) -> dict:
    path = Path(folder) / MANIFEST
    if not path.is_file():
        from npuready.errors import InputError
        raise InputError(f"{path}: missing; train the zoo with `npuready train --arch NAME` or restore zoo/")
    return json.loads(path.read_text())
