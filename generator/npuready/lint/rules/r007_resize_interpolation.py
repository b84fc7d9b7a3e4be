"""R007 — Resize/Upsample/GridSample with linear or cubic interpolation (portability)."""
from __future__ import annotations

import numpy as np
from onnx import helper

from npuready.graph import Graph, Node
from npuready.lint import examples as ex
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target

# op -> default interpolation mode when the attribute is absent (onnx operator specs)
DEFAULT_MODE = {"Resize": "nearest", "Upsample": "nearest", "GridSample": "linear", "RoiAlign": "linear"}


def interpolation(node: Node) -> str:
    if node.op_type == "RoiAlign":
        return "linear"  # RoiAlign always samples bilinearly; its 'mode' is avg/max pooling of the samples
    mode = str(node.attr("mode", DEFAULT_MODE[node.op_type])).lower()
    return {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if not node.is_standard or node.op_type not in DEFAULT_MODE:
            continue
        mode = interpolation(node)
        if mode != "nearest":
            findings.append(RULE.finding(node, f"{node.op_type} interpolates with mode '{mode}'; accelerators implement "
                                               "it differently (coordinate transform, rounding, edge handling)",
                                         sub.scope, value=mode, limit="nearest"))
    return findings


def _resize(mode: str, name: str):
    m = ex.conv_relu(name=name)
    g = m.graph
    g.node[-1].output[0] = "r"
    g.node.append(helper.make_node("Resize", ["r", "", "scales"], ["y"], name="resize", mode=mode))
    g.initializer.append(ex.const("scales", np.array([1, 1, 2, 2], np.float32)))
    del g.output[:]
    g.output.append(ex.value("y", [1, 64, 32, 32]))
    return m


def _bad():
    return _resize("linear", "r007_bad")


def _good():
    return _resize("nearest", "r007_good")


RULE = Rule(
    id="R007",
    severity=Severity.ERROR,
    title="Resize with linear or cubic interpolation",
    why="Bilinear and bicubic resizing differ subtly between accelerators (half-pixel vs align-corners "
        "coordinates, fixed-point weights, border handling), so the same graph gives different values after a "
        "hardware change; nearest-neighbour resizing is exact everywhere.",
    fix="Use mode='nearest' (e.g. nn.Upsample(mode='nearest')) or a learned ConvTranspose for upsampling; do "
        "bilinear resizing of inputs in pre-processing on the CPU.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="Checks Resize (default nearest), Upsample (opset 7-9; 'bilinear'/'trilinear' count as linear), "
          "GridSample (default bilinear) and RoiAlign (always bilinear sampling).",
)
