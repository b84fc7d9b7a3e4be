"""Calibration manifests (``manifest.json`` beside the sample tensors), validated with a JSON Schema.

The builder (``npuready preprocess calib``) writes them; users hand-edit or generate their own. Every
sample path must stay inside the manifest's folder and name a regular file; labels are class indices.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npuready.inputs import budget
from npuready.inputs.files import relative_inside
from npuready.inputs.json_file import read_json

NAME = "manifest.json"

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "calibration manifest",
    "description": "A calibration or evaluation set: one model-input tensor (.npy) per sample, listed in order.",
    "type": "object",
    "required": ["samples"],
    "properties": {
        "samples": {
            "type": "array", "minItems": 1, "maxItems": budget.MAX_SAMPLES,
            "description": "one entry per sample, in the order they are used",
            "items": {
                "type": "object",
                "required": ["file"],
                "properties": {
                    "file": {"type": "string", "minLength": 1,
                             "description": "path of the sample's .npy tensor, relative to the manifest's folder"},
                    "label": {"type": ["integer", "null"], "minimum": 0, "maximum": budget.MAX_LABEL,
                              "description": "class index of the sample (optional; needed for accuracy)"},
                },
            },
        },
        "classes": {"type": "array", "items": {"type": "string"},
                    "description": "class names by index, when the source labelled images by name (informative)"},
        "shape": {"type": "array", "items": {"type": "integer", "minimum": 1},
                  "description": "the model input shape the tensors were written for (informative)"},
    },
}


@dataclass(frozen=True)
class Manifest:
    folder: Path
    files: tuple[Path, ...]          # resolved, inside ``folder``, regular files
    relative: tuple[str, ...]        # as written in the manifest
    labels: tuple[int, ...] | None   # None unless every sample has one
    raw: dict[str, Any]


def read_manifest(folder: "str | Path", label: str | None = None) -> Manifest:
    """Parse, validate and resolve ``folder/manifest.json``; nothing outside ``folder`` is touched."""
    root = Path(folder)
    shown = label or str(root / NAME)
    doc = read_json(root / NAME, SCHEMA, shown, inside=root)
    samples = doc["samples"]
    files = tuple(relative_inside(root, s["file"], f"{shown}: samples[{i}].file") for i, s in enumerate(samples))
    labels = [s.get("label") for s in samples]
    return Manifest(root, files, tuple(s["file"] for s in samples),
                    tuple(labels) if all(v is not None for v in labels) else None, doc)
