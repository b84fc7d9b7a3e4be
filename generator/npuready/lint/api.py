"""``lint(model, target=...)``: run the registered rules on a model, then apply the configuration.

Configuration (``npuready.lint.config``) chooses the rules, replaces severities and attaches waivers;
a baseline marks findings recorded earlier. Suppressed findings stay in the report, marked.
"""
from __future__ import annotations

import datetime as dt
import os
from dataclasses import replace

import onnx

from npuready.graph import Graph, load
from npuready.lint.baseline import Baseline, apply_baseline
from npuready.lint.config import LintConfig
from npuready.lint.policy import DEFAULT_PROFILE, check_profile
from npuready.lint.registry import RULES
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, LintOptions, Severity
from npuready.lint.waivers import apply_waivers
from npuready.targets import DEFAULT_TARGET, Target, load_target


def lint(model: "str | os.PathLike | onnx.ModelProto | Graph", target: "str | Target | None" = None,
         allow_batched_input: bool = False, rules: "list[str] | None" = None,
         config: LintConfig | None = None, baseline: Baseline | None = None,
         today: dt.date | None = None, profile: str = DEFAULT_PROFILE) -> LintReport:
    """Lint a model path, ModelProto or Graph against ``target`` (default: the configuration's, else
    the default target). Raises ``InputError`` on unusable input.

    ``profile`` is the severity policy (``npuready.lint.policy``): "target" (default) or "portable"."""
    graph = load(model)
    tgt = load_target(target if target is not None else (config.target if config and config.target else DEFAULT_TARGET))
    options = LintOptions(allow_batched_input=allow_batched_input, profile=check_profile(profile))
    rule_ids = config.rule_ids(RULES) if config else list(RULES)
    selected = [RULES[r] for r in rule_ids if not rules or r in rules]
    findings: list[Finding] = []
    for rule in selected:
        findings.extend(rule.check(graph, tgt, options))
    name = str(graph.path) if graph.path else graph.name
    model_key = config.model_key(graph.path) if config and graph.path else name
    if config is not None:
        findings = [replace(f, severity=config.severity.get(f.rule, f.severity)) for f in findings]
        findings = apply_waivers(findings, config.waivers, model_key, today or dt.date.today())
    if baseline is not None:
        findings = apply_baseline(findings, baseline, model_key)
    order = {rid: i for i, rid in enumerate(RULES)}
    node_order = {n.name: n.index for n in graph.nodes}
    rank = {sev: i for i, sev in enumerate(Severity)}
    findings.sort(key=lambda f: (rank[f.severity], order.get(f.rule, 99),
                                 f.graph, node_order.get(f.node, -1)))
    return LintReport(model=name, target=tgt.name, options=options, findings=tuple(findings),
                      inference_error=graph.inference_error, rules_run=tuple(r.id for r in selected),
                      model_key=model_key, config=str(config.path) if config and config.path else None,
                      baseline=baseline.path if baseline else None, fail_on=config.fail_on if config else "error",
                      shapes=graph.shape_summary())
