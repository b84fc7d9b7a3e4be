"""R001b — deployment graphs have batch 1 (diagnostic graphs may opt out explicitly)."""
from __future__ import annotations

from npuready.graph import Graph
from npuready.lint import examples as ex
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    if options.allow_batched_input:
        return []
    findings: list[Finding] = []
    for io in graph.inputs:
        if io.shape is None or len(io.shape) < 2:
            continue  # scalars and vectors have no batch axis
        batch = io.shape[0]
        if isinstance(batch, int) and batch > 1:  # symbolic/unknown batch is R001a's finding
            findings.append(RULE.finding(None, f"graph input '{io.name}' has batch {batch} in shape {io.shape_text()}",
                                         value=batch, limit=1, tensor=io.name))
    return findings


def _bad():
    return ex.conv_relu(shape=(8, 3, 16, 16), name="r001b_bad")


def _good():
    return ex.conv_relu(shape=(1, 3, 16, 16), name="r001b_good")


RULE = Rule(
    id="R001b",
    severity=Severity.ERROR,
    title="Deployment graphs have batch 1",
    why="An edge deployment runs one frame at a time; a fixed batch N>1 multiplies latency and activation memory "
        "on the NPU and usually means a training/export setting leaked into the deployment graph.",
    fix="Export the deployment graph with batch 1. For diagnostic or probe graphs that carry frames on the batch "
        "axis (e.g. a Temporal Shift Module with N*T frames), lint with allow_batched_input=True "
        "(CLI --allow-batched-input).",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="Split from the original R001: a fixed batch of T is still a static shape, so it never triggers R001a. "
          "The exemption is off by default; an exemption by default would let deployment graphs pass silently. "
          "Only graph inputs of rank >= 2 are checked (the first axis is taken as the batch axis).",
)
