"""Quantisation risks read from the float ONNX graph: weight ranges, unfoldable norms, table activations.

- ``wide-weight-range``: a Conv/Gemm/MatMul whose per-output-channel max |w| differs a lot between
  channels. With one per-tensor int8 scale, the narrowest channel keeps only ``127 / ratio`` of the
  127 positive levels; below ``MIN_LEVELS`` (4 bits) it is flagged. Per-channel scales give every
  channel all 127 levels.
- ``dead-channel``: an output channel whose weights are all zero (ratio undefined; a pruning candidate).
- ``unfoldable-norm``: LayerNorm/InstanceNorm/GroupNorm (and BatchNorm not after a conv) keep a
  run-time division and square root; their int8 input range is data-dependent (lint R006 names them).
- ``table-activation``: a smooth activation the target evaluates through a lookup table (precision
  limited by the 256 int8 input codes) or, on a target without tables, on the host (the int8 tensor
  is dequantised, leaves the NPU and comes back).
- ``integer-coverage``: a node npuready's integer engine (the bit-exact check against LiteRT) or its INT8
  TFLite exporter cannot run yet (``verify.coverage``), said before anyone quantizes; a gap of this tool,
  not of the target.

Every risk rests on the float weights and the target description, not on a quantised run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from npuready.graph import Graph, Node, families
from npuready.lint.rules.r005_activation_allowlist import ACTIVATION_OPS
from npuready.lint.rules.r006_unfoldable_norm import check as norm_check
from npuready.lint.rule import LintOptions
from npuready.targets import Target

MIN_LEVELS = 16  # positive int8 levels the narrowest channel must keep under a per-tensor scale (4 bits)
INT8_LEVELS = 127
WEIGHTED = families.MAC
# Activations that are piecewise linear: fused into the output stage, never a table.
PIECEWISE_LINEAR = families.PIECEWISE_LINEAR


@dataclass(frozen=True)
class QuantRisk:
    kind: str       # wide-weight-range | dead-channel | unfoldable-norm | table-activation | integer-coverage
    level: str      # high | medium | info
    node: str
    op_type: str
    message: str
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "node": self.node, "op_type": self.op_type,
                "message": self.message, "evidence": dict(self.evidence)}


def output_channel_axis(node: Node) -> int | None:
    """Axis of the weight tensor that indexes output channels (None when unknown)."""
    if node.op_type == "Conv":
        return 0
    if node.op_type == "ConvTranspose":
        return 1 if int(node.attr("group", 1)) == 1 else None
    if node.op_type == "Gemm":
        return 0 if node.attr("transB", 0) else 1
    if node.op_type == "MatMul":
        return -1
    return None


def channel_ranges(weights: np.ndarray, axis: int) -> np.ndarray:
    """max |w| per output channel."""
    w = np.moveaxis(np.abs(weights.astype(np.float64)), axis, 0)
    return w.reshape(w.shape[0], -1).max(axis=1)


def weight_range_risks(graph: Graph) -> list[QuantRisk]:
    risks: list[QuantRisk] = []
    for node in graph.nodes:
        if node.op_type not in WEIGHTED or len(node.inputs) < 2:
            continue
        w = graph.constant(node.inputs[1])
        axis = output_channel_axis(node)
        if w is None or axis is None or w.ndim < 2 or not np.issubdtype(w.dtype, np.floating):
            continue
        ranges = channel_ranges(w, axis)
        dead = int((ranges == 0).sum())
        live = ranges[ranges > 0]
        if dead:
            risks.append(QuantRisk("dead-channel", "info", node.name, node.op_type,
                                   f"{dead} of {len(ranges)} output channels have all-zero weights",
                                   {"dead_channels": dead, "channels": int(len(ranges))}))
        if len(live) < 2:
            continue
        ratio = float(live.max() / live.min())
        levels = INT8_LEVELS / ratio
        if levels >= MIN_LEVELS:
            continue
        risks.append(QuantRisk(
            "wide-weight-range", "high", node.name, node.op_type,
            f"per-channel max|w| spans {ratio:.1f}x across {len(ranges)} channels: with one per-tensor scale the "
            f"narrowest channel keeps {levels:.1f} of {INT8_LEVELS} levels",
            {"ratio": round(ratio, 3), "channels": int(len(ranges)), "narrowest_levels_per_tensor": round(levels, 3),
             "limit_levels": MIN_LEVELS, "max_abs": float(live.max()), "min_channel_max_abs": float(live.min())}))
    return risks


def norm_risks(graph: Graph, target: Target) -> list[QuantRisk]:
    out = []
    for f in norm_check(graph, target, LintOptions()):
        bn = f.op_type == "BatchNormalization"
        out.append(QuantRisk("unfoldable-norm", "medium" if bn else "high", f.node, f.op_type,
                             "an unfolded BatchNorm stays a separate per-channel scale and shift: its int8 output "
                             "needs its own range" if bn else
                             f"{f.op_type} keeps a run-time mean/variance (division, square root): its int8 input "
                             "range depends on the data and it stays a separate layer",
                             {"rule": f.rule, "graph": f.graph}))
    return out


def activation_risks(graph: Graph, target: Target) -> list[QuantRisk]:
    out = []
    for node in graph.nodes:
        op = node.op_type
        if op in PIECEWISE_LINEAR or (op not in ACTIVATION_OPS and target.activation_mode(op) is None):
            continue
        mode = target.activation_mode(op)
        if mode == "lut":
            out.append(QuantRisk("table-activation", "info", node.name, op,
                                 f"{op} runs through a 256-entry lookup table on {target.name}: its output is exact "
                                 "only at the 256 int8 input codes", {"mode": mode, "target": target.name}))
        elif mode != "fused":
            out.append(QuantRisk("table-activation", "high", node.name, op,
                                 f"{op} needs a lookup table that {target.name} does not have: it runs on the host "
                                 "(dequantise → float → requantise, two NPU↔CPU transfers)",
                                 {"mode": mode or "absent", "target": target.name}))
    return out


def coverage_risks(graph: Graph) -> list[QuantRisk]:
    from npuready.verify.coverage import gaps

    out = []
    for gap in gaps(graph):
        parts = [f"integer engine: {gap.engine}" if gap.engine else "",
                 f"INT8 TFLite export: {gap.tflite}" if gap.tflite else ""]
        out.append(QuantRisk("integer-coverage", "info", gap.node, gap.op_type,
                             "; ".join(p for p in parts if p) + " (docs/ops.md lists what is covered)",
                             {"engine": gap.engine, "tflite": gap.tflite}))
    return out


def quant_risks(graph: Graph, target: Target) -> list[QuantRisk]:
    """All risks, high first, then in graph order."""
    order = {n.name: n.index for n in graph.nodes}
    risks = (weight_range_risks(graph) + norm_risks(graph, target) + activation_risks(graph, target)
             + coverage_risks(graph))
    rank = {"high": 0, "medium": 1, "info": 2}
    return sorted(risks, key=lambda r: (rank[r.level], order.get(r.node, -1), r.kind))
