"""R009 — nodes the target places off the NPU (the partition planner's own decision, read, not redone)."""
from __future__ import annotations

from typing import Mapping

from onnx import helper

from npuready.graph import Graph
from npuready.lint import examples as ex
from npuready.lint import policy
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target

LINT_ERROR = "cpu: lint ERROR"  # the planner's reason for a node another rule's ERROR keeps off the NPU


def placed(graph: Graph, target: Target, options: LintOptions, placements: Mapping) -> list[Finding]:
    """One finding per main-graph node the placement puts on the CPU, unless another rule's ERROR already
    names it (that ERROR is why it is there). ``placements`` is ``npuready.partition.placement.place``'s."""
    from npuready.partition.inventory import classify

    findings: list[Finding] = []
    for node in graph.nodes:
        p = placements.get(node.name)
        if p is None or p.device != "cpu" or p.reason.startswith(LINT_ERROR):
            continue
        computation, host = classify(graph, node, "", set())
        why = p.reason.removeprefix("cpu: ")
        message = f"runs on the host CPU, not on {target.name}'s NPU: {why}"
        if host is None:
            message += f"; nothing implements it on the host either ({computation})"
        findings.append(RULE.finding(node, message, severity=policy.placement_severity(host is not None),
                                     value=p.reason, limit=f"on the NPU of {target.name}",
                                     host=host or "missing", profile=options.profile))
    return findings


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    """Standalone: one lint run decides the placement, then ``placed`` reports it."""
    from npuready.lint.api import run_lint

    return list(run_lint(graph, target, options, rules=[RULE.id]).report.findings)


def _bad():
    m = ex.conv_relu(name="r009_bad")
    m.graph.node.insert(1, helper.make_node("Neg", ["c"], ["n"], name="neg"))
    m.graph.node[2].input[0] = "n"
    return m


def _good():
    return ex.conv_relu(name="r009_good")


RULE = Rule(
    id="R009",
    severity=Severity.WARN,
    title="Node the target places off the NPU",
    why="What the target does not run goes to its host CPU: the graph splits there, every tensor crossing the "
        "cut is copied both ways per inference, and the host runs the node far slower than the NPU would. Lint "
        "names each such node up front, from the same placement the partition plan and the cost model use, so "
        "`lint`, `partition` and `cost` never disagree about where a node runs.",
    fix="Replace the op by one the target runs (see `npuready targets` and docs/targets.md), move it out of the "
        "model into pre- or post-processing, or accept the split and ship the CPU part "
        "(`npuready partition --extract`); a node nothing implements on the host needs hand-written CPU code.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    placed=placed,
    notes="One finding per main-graph node the partition planner places on the CPU (`npuready.partition.placement`: "
          "an op the target does not declare, a dynamic or unknown shape, control flow, a custom domain, a pattern "
          "whose core cannot run), with the planner's reason as evidence; a node another rule's ERROR keeps off "
          "the NPU is named by that ERROR instead. Nothing is reported while a graph input has an unpinned dim "
          "(R001a names it; pin it with --batch or --input-shape): the planner refuses such a graph. "
          "Severity: WARN when the host still runs the node (onnxruntime on the extracted CPU part, NumPy or an "
          "npuready.runtime function), ERROR when nothing implements it there (`npuready.partition.inventory`), "
          "on every target and in both profiles. The edges policy (`--edges cpu`) moves further nodes to the CPU "
          "by choice, not because the target cannot run them; lint does not report those.",
)
