"""Where the cost experiments get their ONNX models: the built-in examples plus the zoo exports if present."""
from __future__ import annotations

from pathlib import Path

import onnx

from npuready.cost.examples import EXAMPLES


def example_models(names: list[str]) -> dict[str, onnx.ModelProto]:
    unknown = [n for n in names if n not in EXAMPLES]
    if unknown:
        raise ValueError(f"unknown example model(s) {unknown}; choose from {sorted(EXAMPLES)}")
    return {n: EXAMPLES[n]() for n in names}


def zoo_models(repo: Path, pattern: str = "zoo/*.onnx") -> dict[str, Path]:
    """ONNX files committed by the zoo (name -> path), sorted; empty when the zoo has none yet."""
    return {p.stem: p for p in sorted(repo.glob(pattern))}
