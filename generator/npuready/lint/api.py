"""``lint(model, target=...)``: run every registered rule on a model."""
from __future__ import annotations

import os

import onnx

from npuready.graph import Graph, load
from npuready.lint.registry import RULES
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, LintOptions
from npuready.targets import DEFAULT_TARGET, Target, load_target


def lint(model: "str | os.PathLike | onnx.ModelProto | Graph", target: "str | Target" = DEFAULT_TARGET,
         allow_batched_input: bool = False, rules: "list[str] | None" = None) -> LintReport:
    """Lint a model path, ModelProto or Graph against ``target``. Raises ``InputError`` on unusable input."""
    graph = load(model)
    tgt = load_target(target)
    options = LintOptions(allow_batched_input=allow_batched_input)
    selected = [RULES[r] for r in rules] if rules else list(RULES.values())
    findings: list[Finding] = []
    for rule in selected:
        findings.extend(rule.check(graph, tgt, options))
    order = {rid: i for i, rid in enumerate(RULES)}
    node_order = {n.name: n.index for n in graph.nodes}
    findings.sort(key=lambda f: (0 if f.severity.value == "ERROR" else 1, order.get(f.rule, 99),
                                 f.graph, node_order.get(f.node, -1)))
    name = str(graph.path) if graph.path else graph.name
    return LintReport(model=name, target=tgt.name, options=options, findings=tuple(findings),
                      inference_error=graph.inference_error, rules_run=tuple(r.id for r in selected),
                      shapes=graph.shape_summary())
