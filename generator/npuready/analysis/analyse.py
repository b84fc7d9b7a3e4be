"""``analyse(model, target, options) -> Analysis``: lint, placement, partition plan and cost in one pass.

One lint run (``npuready.lint.api.run_lint``) checks the rules and decides the placement once
(``npuready.partition.placement.place``, from the rules' ERRORs); the partition planner builds its plan
from that placement (``plan_partition(..., lint_run=)``) and the cost model prices the plan's placement
(``estimate(..., placement=)``), so nothing is linted or placed twice. The verbs (``lint``, ``partition``,
``cost``), ``report``, ``intake`` and ``deploy`` all go through here.

The stages keep their own evidence labels: lint and the plan rest on ONNX structure and the target's
declarations (not NPU silicon); cost is simulated; ``seconds`` (wall time per stage) is measured.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping

import onnx

from npuready.errors import InputError
from npuready.graph import Graph, load
from npuready.graph.unresolved import require_pinned
from npuready.lint import api as lint_api
from npuready.lint.policy import DEFAULT_PROFILE, check_profile
from npuready.lint.rule import LintOptions
from npuready.partition.placement import EDGE_POLICIES
from npuready.targets import DEFAULT_TARGET, Target, load_target

if TYPE_CHECKING:
    from npuready.cost.report import CostReport
    from npuready.lint.baseline import Baseline
    from npuready.lint.config import LintConfig
    from npuready.lint.report import LintReport
    from npuready.partition.placement import Placement
    from npuready.partition.plan import PartitionPlan

STAGES = ("lint", "partition", "cost")
REFUSALS = ("raise", "record")
_VERB = {"partition": "the partition", "cost": "the cost model"}  # as each stage names itself when it refuses


@dataclass(frozen=True)
class AnalysisOptions:
    """What to run and how. ``stages``: a subset of ``STAGES`` (lint always runs: it decides the placement).
    ``edges``: the planner's edges policy, for partition and cost alike. ``allow_batched_input``, ``profile``,
    ``rules``, ``config``, ``baseline``: lint's options (configuration and baseline shape the lint report
    only, never the placement). ``refusals``: "raise" the ``InputError`` of a stage that refuses the graph
    (an unpinned input: before anything runs, as the verbs do) or "record" it in ``Analysis.refused`` and
    carry on. ``stop_on_block``: skip partition and cost when the lint report is blocked (deploy's rule).
    ``progress`` wraps the cost model's node loop."""

    stages: tuple[str, ...] = STAGES
    edges: str = "npu"
    allow_batched_input: bool = False
    profile: str = DEFAULT_PROFILE
    rules: "tuple[str, ...] | None" = None
    config: "LintConfig | None" = None
    baseline: "Baseline | None" = None
    refusals: str = "raise"
    stop_on_block: bool = False
    progress: "Callable | None" = field(default=None, compare=False)


@dataclass(frozen=True)
class Analysis:
    """The frozen result of one pass: the lint report, the placement (under ``options.edges``), the
    partition plan and the cost report (None for a stage not asked for, skipped or refused)."""

    graph: Graph = field(repr=False, compare=False)
    target: Target
    options: AnalysisOptions
    lint: "LintReport"
    placements: "Mapping[str, Placement] | None"
    plan: "PartitionPlan | None"
    cost: "CostReport | None"
    refused: Mapping[str, str] = field(default_factory=dict)  # stage -> why (options.refusals == "record")
    seconds: Mapping[str, float] = field(default_factory=dict)  # wall time per asked-for stage (measured)

    @property
    def model(self) -> str:
        return str(self.graph.path) if self.graph.path else self.graph.name


def analyse(model: "str | os.PathLike | onnx.ModelProto | Graph", target: "str | Target" = DEFAULT_TARGET,
            options: AnalysisOptions = AnalysisOptions()) -> Analysis:
    """Analyse a model path, ModelProto or Graph on ``target`` (see the module docstring). Raises
    ``InputError`` on unusable input, and for a stage that refuses the graph unless ``options.refusals``
    is "record"."""
    from npuready.cost.model import estimate
    from npuready.partition.plan import plan_partition

    unknown = [s for s in options.stages if s not in STAGES]
    if unknown or options.refusals not in REFUSALS:
        raise ValueError(f"analysis stages {options.stages} / refusals {options.refusals!r}: use {STAGES} / {REFUSALS}")
    if options.edges not in EDGE_POLICIES:
        raise InputError(f"edges policy '{options.edges}': unknown; use one of {', '.join(EDGE_POLICIES)}")
    lint_options = LintOptions(options.allow_batched_input, check_profile(options.profile))
    graph = load(model)
    later = [s for s in ("partition", "cost") if s in options.stages]
    if later and options.refusals == "raise" and not options.stop_on_block:
        require_pinned(graph, _VERB[later[0]])  # refuse before linting a graph the planner cannot size
    tgt = load_target(target)
    seconds: dict[str, float] = {}
    refused: dict[str, str] = {}
    clock = _Clock(options.stages, seconds)
    run = lint_api.run_lint(graph, tgt, lint_options, list(options.rules) if options.rules else None,
                            options.config, options.baseline)
    clock.done("lint")
    plan = cost = None
    placements = run.placements
    if options.stop_on_block and run.report.blocked:
        later = []
    if "partition" in later:
        try:
            plan = plan_partition(graph, tgt, edges=options.edges, lint_run=run)
        except InputError as exc:
            if options.refusals == "raise":
                raise
            refused["partition"] = str(exc)
        else:
            placements = {p.node: p for p in plan.placements}
        clock.done("partition")
    if "cost" in later:
        try:
            cost = estimate(graph, tgt, options.edges, options.progress,
                            placement=plan if plan is not None else run.placements)
        except InputError as exc:
            if options.refusals == "raise":
                raise
            refused["cost"] = str(exc)
        clock.done("cost")
    if plan is None and placements is not None and options.edges != "npu":
        from npuready.partition.placement import with_edges

        placements = with_edges(graph, placements, options.edges)
    return Analysis(graph, tgt, options, run.report, placements, plan, cost, refused, seconds)


class _Clock:
    """Wall time per asked-for stage; lint's time goes to the first asked-for stage when lint was not asked for."""

    def __init__(self, stages: tuple[str, ...], seconds: dict[str, float]):
        self.stages, self.seconds, self.start, self.carry = stages, seconds, time.perf_counter(), 0.0

    def done(self, stage: str) -> None:
        now = time.perf_counter()
        spent, self.start = now - self.start + self.carry, now
        if stage in self.stages:
            self.seconds[stage], self.carry = spent, 0.0
        else:
            self.carry = spent
