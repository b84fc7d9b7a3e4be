"""Models and files for the configuration, waiver and baseline tests.

``activations(n)``: a chain of ``n`` Softsign nodes act0 … act{n-1}; on edge-10 each is one R005 ERROR
(Softsign is outside the target's activation allowlist), so every node has exactly one finding to waive,
ignore or record in a baseline.
"""
from __future__ import annotations

from pathlib import Path

import onnx
from onnx import helper

from npuready.lint import examples as ex


def activations(n: int, name: str = "acts") -> onnx.ModelProto:
    nodes = [helper.make_node("Softsign", [f"t{i}"], [f"t{i + 1}"], name=f"act{i}") for i in range(n)]
    return ex.model(nodes, [ex.value("t0", [1, 4])], [ex.value(f"t{n}", [1, 4])], name=name)


def save(model: onnx.ModelProto, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, path)
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
