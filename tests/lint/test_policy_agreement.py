"""Every finding's severity agrees with the target's declared support and with the partition plan, for every
rule x target x profile, on the onnx wheel's light_* models, the zoo exports, the partition examples and the
policy's own case graphs (bilinear/bicubic Resize at several scales, every normalisation, the exact-GELU export).

- severity: in the portable profile every finding has its rule's own severity; in the target profile a finding
  of a target-dependent rule (R005-R007) is an ERROR exactly when ``node_support`` says the target cannot run the
  node, else INFO (native modes) or WARN (vector / lowered); other rules keep their severity.
- plan: a node with an ERROR is never on the NPU; a node on the NPU carries no ERROR; a WARN/INFO "runs on T"
  node is on the NPU unless the plan names another reason (folded, dynamic shape, another rule's ERROR,
  a pattern whose core has an ERROR).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from npuready.experiments.onnx_corpus import corpus_files
from npuready.graph import load
from npuready.lint import Severity, lint
from npuready.lint.policy import NATIVE_MODES, PROFILES, TARGET_RULES, placement_severity
from npuready.lint.policy_cases import cases
from npuready.lint.registry import RULES
from npuready.partition.examples import EXAMPLES
from npuready.partition.plan import plan_partition
from npuready.targets import load_target, target_names
from npuready.targets.support import node_support

ROOT = Path(__file__).resolve().parents[2]
OTHER_REASONS = ("folded", "cpu: dynamic or unknown shape", "cpu: lint ERROR", "cpu: control flow")


def _models():
    models = {p.name: p for p in corpus_files(["light"])}
    models.update({f"zoo/{p.name}": p for p in sorted((ROOT / "zoo").glob("*.onnx"))})
    models.update({f"example/{name}": build for name, build in EXAMPLES.items()})
    return models


MODELS = _models()


def _case_graphs():
    """The policy's own case graphs (the ones the docs tables are generated from), one per case."""
    target = load_target("edge-10")
    return {f"case/{rid}/{c.label}": c for rid in TARGET_RULES for c in cases(rid, target)}


def _agree(graph, target_name, profile):
    target = load_target(target_name)
    report = lint(graph, target=target, profile=profile)
    plan = plan_partition(graph, target=target, profile=profile)
    placed = {p.node: p for p in plan.placements}
    errors = {f.node for f in report.errors if not f.graph}
    problems = []
    for f in report.findings:
        rule = RULES[f.rule]
        if f.graph or f.node not in placed:
            if profile == "portable" or f.rule not in TARGET_RULES:
                assert f.severity is rule.severity, f
            continue
        node = graph.node(f.node)
        support = node_support(graph, node, target)
        if f.rule == "R009":  # the node is off the NPU; its severity says whether the host runs it
            expected = placement_severity(f.evidence["host"] != "missing")
            if placed[f.node].device != "cpu":
                problems.append(f"R009 {f.node}: named, but placed {placed[f.node].device}")
        elif profile == "portable" or f.rule not in TARGET_RULES:
            expected = rule.severity
        elif not support.runs:
            expected = Severity.ERROR
        else:
            expected = Severity.INFO if support.mode in NATIVE_MODES else Severity.WARN
        if f.severity is not expected:
            problems.append(f"{f.rule} {f.node}: {f.severity} but the target declares {support.mode} ({expected})")
        p = placed[f.node]
        if f.severity is Severity.ERROR and p.device == "npu":
            problems.append(f"{f.rule} {f.node}: ERROR but placed on the NPU")
        if f.severity is not Severity.ERROR and f.rule in TARGET_RULES and profile == "target":
            if p.device != "npu" and not (p.reason.startswith(OTHER_REASONS) or "part of a pattern" in p.reason):
                problems.append(f"{f.rule} {f.node}: {f.severity} 'runs on {target_name}' but {p.device}: {p.reason}")
            if f.node not in errors and support.how not in f.message:
                problems.append(f"{f.rule} {f.node}: message does not say how it runs")
    for name, p in placed.items():
        if p.device == "npu" and name in errors:
            problems.append(f"{name}: on the NPU with an ERROR")
    return problems, report, plan


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("target_name", target_names())
@pytest.mark.parametrize("model", list(MODELS))
def test_findings_agree_with_declared_support_and_the_plan(model, target_name, profile):
    source = MODELS[model]
    graph = load(source if isinstance(source, Path) else source())
    problems, _, _ = _agree(graph, target_name, profile)
    assert problems == []


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("target_name", target_names())
@pytest.mark.parametrize("case", list(_case_graphs()))
def test_policy_cases_agree_with_the_plan(case, target_name, profile):
    c = _case_graphs()[case]
    problems, report, plan = _agree(c.graph, target_name, profile)
    assert problems == []
    found = [f for f in report.findings if f.node == c.node]
    on_npu = next(p for p in plan.placements if p.node == c.node).device == "npu"
    # nothing else keeps these tiny graphs off the NPU: no finding or a WARN/INFO <=> on the NPU
    assert on_npu is (not found or found[0].severity is not Severity.ERROR)
    assert on_npu is (c.support(load_target(target_name)).runs and not (found and profile == "portable"))


def test_the_cases_cover_both_outcomes_on_the_vela_mirror():
    """The docs table rows for ethos-u55-128 (from the same graphs): what Vela 5.2.0 runs and what it cannot."""
    t = load_target("ethos-u55-128")
    runs = {rid: [(c.label, c.support(t).runs, c.support(t).mode) for c in cases(rid, t)] for rid in TARGET_RULES}
    assert runs["R005"][0][1:] == (True, "lut")  # the exact-GELU export runs as Vela's GELU
    assert [r[1:] for r in runs["R006"][:2]] == [(True, "lowered"), (True, "lowered")]  # unfolded BN, LayerNorm
    assert [r[1] for r in runs["R006"][2:]] == [False] * 5
    # 2x; 2x half-pixel; 4x half-pixel; 3x; cubic
    assert [r[1] for r in runs["R007"]] == [True, True, False, False, False]
