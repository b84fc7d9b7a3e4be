"""The evidence vocabulary: what kind of fact a stored number is. One registry for results, schema, site and docs.

Every ``results`` section of an experiment (and every model-report section) carries one of these kinds in its
``evidence`` field; the site shows it as a badge and explains the four kinds once, from this table.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Evidence:
    kind: str
    meaning: str  # one sentence a reader needs, no project jargon
    examples: str


KINDS: dict[str, Evidence] = {
    "measured": Evidence("measured", "ran here and was timed or counted from a run",
                         "top-1 accuracy, run times, mismatch counts between the integer engine and fake-quant"),
    "analysis": Evidence("analysis", "derived deterministically from the ONNX graph and the target description, "
                         "without running the model or a cost model",
                         "lint findings, CPU/NPU partitions, what an intake report prescribes"),
    "simulated": Evidence("simulated", "from a cost model of a virtual NPU, not from silicon",
                          "cycles, latency, energy, MAC-array utilisation"),
    "reference": Evidence("reference", "the output of an external tool, named with its version in the record",
                          "SCALE-Sim, Arm Vela, LiteRT reference kernels, onnxruntime's own quantizer"),
}
EVIDENCE: tuple[str, ...] = tuple(KINDS)
