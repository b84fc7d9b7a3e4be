"""R007 — Resize/Upsample/GridSample with linear or cubic interpolation (portability)."""
from __future__ import annotations

import numpy as np
from onnx import helper

from npuready.graph import Graph
from npuready.lint import examples as ex
from npuready.lint import policy
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target
from npuready.targets.support import DEFAULT_INTERPOLATION, interpolation

DEFAULT_MODE = DEFAULT_INTERPOLATION


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if not node.is_standard or node.op_type not in DEFAULT_MODE:
            continue
        mode = interpolation(node)
        if mode != "nearest":
            findings.append(policy.finding(RULE, sub, node, target, options,
                                           f"{node.op_type} interpolates with mode '{mode}'; accelerators implement "
                                           "it differently (coordinate transform, rounding, edge handling)",
                                           value=mode, limit="nearest"))
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
    return _resize("cubic", "r007_bad")  # no target runs bicubic: an ERROR in both profiles


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
          "GridSample (default bilinear) and RoiAlign (always bilinear sampling). Under the default target profile "
          "the target's [resize] table decides: an interpolation it runs natively within its declared scale "
          "factors and coordinate transforms (e.g. Vela's RESIZE_BILINEAR: equal 2x/4x/8x, half-pixel only 2x) "
          "is INFO and says how; anything outside them stays an ERROR. A nearest Resize is never a finding; "
          "one outside the target's scale factors is placed on the CPU by the partition planner, which says why.",
)
