"""``lint(model, target=...)``: run the registered rules on a model, then apply the configuration.

One run (``run_lint``) has three steps:

1. every rule that reads the graph alone (``Rule.placed is None``) checks it, under the options' severity
   profile and whatever the configuration selects (the placement needs all of them);
2. the partition planner's placement (``npuready.partition.placement.place``) is decided once from those
   findings' ERRORs, as the planner has always decided it: the ``LintRun`` carries it, so partition and
   cost read this decision instead of linting again (``npuready.analysis``);
3. the rules that read the placement (R009: every node put off the NPU) report from that same decision.

Configuration (``npuready.lint.config``) then chooses the rules shown, replaces severities and attaches
waivers; a baseline marks findings recorded earlier. Suppressed findings stay in the report, marked. The
configuration never changes the placement: the planner keeps a node with an ERROR off the NPU whatever a
configuration says about the finding.
"""
from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Mapping

import onnx

from npuready.errors import InputError
from npuready.graph import Graph, load
from npuready.graph.shape_summary import shape_summary
from npuready.lint.baseline import Baseline, apply_baseline
from npuready.lint.config import LintConfig
from npuready.lint.policy import DEFAULT_PROFILE, check_profile
from npuready.lint.registry import RULES
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, LintOptions, Severity
from npuready.lint.waivers import apply_waivers
from npuready.targets import DEFAULT_TARGET, Target, load_target

if TYPE_CHECKING:
    from npuready.partition.placement import Placement


@dataclass(frozen=True)
class LintRun:
    """One lint run: the report, and the decision the partition planner and the cost model read.

    ``node_errors`` maps a main-graph node to the ids of the rules with an ERROR on it and ``graph_errors``
    lists the ERRORs tied to no node ("R001b: …"), both before any configuration, as the planner reads them;
    ``placements`` is the planner's placement under the "npu" edges policy, or None when a graph input has
    an unpinned dim (the planner refuses such a graph; R001a reports the dims)."""

    report: LintReport
    node_errors: Mapping[str, tuple[str, ...]]
    graph_errors: tuple[str, ...]
    placements: "Mapping[str, Placement] | None"


def lint(model: "str | os.PathLike | onnx.ModelProto | Graph", target: "str | Target | None" = None,
         allow_batched_input: bool = False, rules: "list[str] | None" = None,
         config: LintConfig | None = None, baseline: Baseline | None = None,
         today: dt.date | None = None, profile: str = DEFAULT_PROFILE) -> LintReport:
    """Lint a model path, ModelProto or Graph against ``target`` (default: the configuration's, else
    the default target). Raises ``InputError`` on unusable input.

    ``profile`` is the severity policy (``npuready.lint.policy``): "target" (default) or "portable"."""
    options = LintOptions(allow_batched_input=allow_batched_input, profile=check_profile(profile))
    tgt = target if target is not None else (config.target if config and config.target else DEFAULT_TARGET)
    return run_lint(load(model), load_target(tgt), options, rules, config, baseline, today).report


def run_lint(graph: Graph, target: Target, options: LintOptions = LintOptions(), rules: "list[str] | None" = None,
             config: LintConfig | None = None, baseline: Baseline | None = None,
             today: dt.date | None = None) -> LintRun:
    """The one lint run of ``graph`` on ``target`` (see the module docstring)."""
    from npuready.partition import placement

    check_profile(options.profile)
    rule_ids = config.rule_ids(RULES) if config else list(RULES)
    selected = [RULES[r] for r in rule_ids if not rules or r in rules]
    chosen = {r.id for r in selected}
    order = {rid: i for i, rid in enumerate(RULES)}
    node_order = {n.name: n.index for n in graph.nodes}
    rank = {sev: i for i, sev in enumerate(Severity)}

    def ranked(found: list[Finding]) -> list[Finding]:
        return sorted(found, key=lambda f: (rank[f.severity], order.get(f.rule, 99), f.graph,
                                            node_order.get(f.node, -1)))

    raw: list[Finding] = []
    for rule in RULES.values():
        if rule.placed is None:
            raw.extend(rule.check(graph, target, options))
    node_errors, graph_errors = _errors(ranked(raw), node_order)
    placed = placement.place(graph, target, node_errors) if _pinned(graph) else None
    findings = [f for f in raw if f.rule in chosen]
    if placed is not None:
        for rule in selected:
            if rule.placed is not None:
                findings.extend(rule.placed(graph, target, options, placed))
    name = str(graph.path) if graph.path else graph.name
    model_key = config.model_key(graph.path) if config and graph.path else name
    if config is not None:
        findings = [replace(f, severity=config.severity.get(f.rule, f.severity)) for f in findings]
        findings = apply_waivers(findings, config.waivers, model_key, today or dt.date.today())
    if baseline is not None:
        findings = apply_baseline(findings, baseline, model_key)
    report = LintReport(model=name, target=target.name, options=options, findings=tuple(ranked(findings)),
                        inference_error=graph.inference_error, rules_run=tuple(r.id for r in selected),
                        model_key=model_key, config=str(config.path) if config and config.path else None,
                        baseline=baseline.path if baseline else None, fail_on=config.fail_on if config else "error",
                        shapes=shape_summary(graph))
    return LintRun(report, node_errors, graph_errors, placed)


def _errors(findings: list[Finding], node_order: Mapping[str, int]
            ) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """(main-graph node → ids of the rules with an ERROR on it, the ERRORs tied to no node as text)."""
    nodes: dict[str, list[str]] = {}
    whole: list[str] = []
    for f in findings:
        if f.severity is not Severity.ERROR or f.graph:
            continue
        if f.node in node_order:
            nodes.setdefault(f.node, []).append(f.rule)
        else:
            whole.append(f"{f.rule}: {f.message}")
    return {k: tuple(v) for k, v in nodes.items()}, tuple(whole)


def _pinned(graph: Graph) -> bool:
    from npuready.graph.unresolved import require_pinned

    try:
        require_pinned(graph, "the placement")
    except InputError:
        return False
    return True
