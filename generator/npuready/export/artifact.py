"""The export's ``manifest.json``: what each file is, its hash, and the evidence behind it.

Keys: ``kind`` (``npuready-export``), ``version``, ``command`` (reproduces the export), ``model``
(file name and SHA-256 of the float model), ``target``, ``tools`` (versions), ``preprocessing`` (the
input contract the calibration used; a device app must prepare inputs the same way), ``input`` /
``outputs`` (int8 scale and zero point: real = scale × (code − zero_point)), ``quantization``,
``check`` (measured: the .tflite against LiteRT's reference kernels), ``cost`` (simulated),
``vela`` (Vela's estimate beside ours, on Ethos-U mirrors) and ``files`` (name → bytes, SHA-256).
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from npuready.atomic import dumps_json, write_bytes
from npuready.export.folder import MANIFEST

DESCRIPTIONS = {
    "model_qdq.onnx": "QDQ ONNX (onnxruntime runs it; the scales every other file uses)",
    "model_int8.tflite": "INT8 TFLite with the QDQ model's scales (LiteRT runs it; Vela and other NPU "
                         "compilers take it)",
    "model_int8_vela.tflite": "the INT8 TFLite compiled by Vela for the Ethos-U system the target mirrors "
                              "(the Ethos-U runtime loads it)",
    "vela_per-layer.csv": "Vela's per-layer performance estimate (--verbose-performance)",
    "vela_summary.csv": "Vela's summary (total cycles, memory traffic, encoded weight bytes)",
}


def file_entry(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    what = DESCRIPTIONS.get(path.name, "")
    if path.suffix == ".rknn":
        what = (f"compiled and quantised by RKNN-Toolkit2 for Rockchip {path.stem.removeprefix('model_')} "
                "(the RKNN runtime loads it)")
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "what": what}


def write_manifest(folder: Path, manifest: dict[str, Any]) -> Path:
    return write_bytes(folder / MANIFEST, dumps_json(manifest).encode())
