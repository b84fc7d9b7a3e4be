"""What a probe is and what running it records."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import onnx

BASIS = ("This is an onnxruntime baseline, not NPU support. 'accepted' means onnxruntime (CPU) created a session "
         "for the probe graph and ran it once on random input; it says nothing about whether a given NPU "
         "supports the op.")


@dataclass(frozen=True)
class Probe:
    """One operator probe: a graph with one op (or a small pattern), built in code."""

    name: str
    group: str  # "activation", "op" or "pattern"
    op_types: tuple[str, ...]
    description: str
    build: Callable[[], onnx.ModelProto]
    batched: bool = False  # diagnostic graph with frames on the batch axis (lint with allow_batched_input)


@dataclass(frozen=True)
class ProbeResult:
    name: str
    group: str
    op_types: tuple[str, ...]
    description: str
    opset: int
    accepted: bool
    stage: str  # "ok", "session" (creation failed) or "run" (the one run failed)
    error: str
    input_shapes: tuple[tuple[int, ...], ...]
    output_shapes: tuple[tuple[int, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "group": self.group, "op_types": list(self.op_types), "description": self.description,
            "opset": self.opset, "accepted": self.accepted, "stage": self.stage, "error": self.error,
            "input_shapes": [list(s) for s in self.input_shapes],
            "output_shapes": [list(s) for s in self.output_shapes],
        }
