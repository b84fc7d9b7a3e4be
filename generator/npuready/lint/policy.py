"""The severity policy: one place that decides how severe a finding is, for every rule × target × profile.

Two profiles:

- ``target`` (the default) — a finding's severity follows from what the target declares
  (``npuready.targets.support.node_support``): what the target cannot run is an ERROR; what it runs is
  not — INFO when it runs natively (a kernel, a fused epilogue, a lookup table), WARN when it runs only
  through a lowering or an extra vector-unit pass (slower, and its numerics depend on that lowering). The
  finding's message says how it runs. This is the default because a deployment is built for one target:
  blocking a LayerNorm the target runs would block a model that deploys.
- ``portable`` — the strict portability profile of the founding rule list: every rule keeps its own
  severity (``Rule.severity``) regardless of target, e.g. any LayerNorm, unfolded BatchNorm or bilinear
  Resize is an ERROR. Use it for a model that must run unchanged on accelerators not yet chosen.

Rules whose severity depends on the target are listed in ``TARGET_RULES``; every other rule reports
something no target declares it can run (dynamic shapes, data-dependent sizes, 3-D ops, custom
domains) or an efficiency note (R004), so its severity is the same on every target and in both profiles.
The partition planner places a node on the NPU exactly when ``node_support`` says the target runs it
(and no ERROR blocks it), so lint, partition, cost and the generated docs agree by construction.

R009 reads that placement itself (one finding per node put off the NPU that no ERROR already names); its
severity (``placement_severity``) depends on the host, not on the profile: WARN while the target's host
CPU still runs the node, ERROR when nothing implements it there.
"""
from __future__ import annotations

from npuready.errors import InputError
from npuready.graph import Graph, Node
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target
from npuready.targets.support import Support, node_support

PROFILES = {
    "target": "severity follows what the target declares it runs: what it cannot run is an ERROR, what it runs "
              "natively is INFO, what it runs through a lowering or an extra pass is WARN (the default)",
    "portable": "the strict portability profile: every rule keeps its own severity regardless of target "
                "(e.g. any LayerNorm, unfolded BatchNorm or bilinear Resize is an ERROR)",
}
DEFAULT_PROFILE = "target"
TARGET_RULES = ("R005", "R006", "R007")  # activations, normalisation, resize interpolation
NATIVE_MODES = frozenset({"fused", "lut", "native", "folded"})


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise InputError(f"profile '{profile}': unknown; use one of {', '.join(PROFILES)}")
    return profile


def severity(rule: Rule, support: Support, profile: str) -> Severity:
    """The severity of ``rule``'s finding on a node the target supports as ``support``."""
    if profile == "portable" or not support.runs:
        return rule.severity
    return Severity.INFO if support.mode in NATIVE_MODES else Severity.WARN


def placement_severity(host_runs_it: bool) -> Severity:
    """R009's severity for a node the planner puts on the CPU, in both profiles: WARN when the deployment
    still runs it on the target's host (onnxruntime on the extracted part, NumPy, an ``npuready.runtime``
    function; ``npuready.partition.inventory``), ERROR when nothing does (the target cannot run it at all)."""
    return Severity.WARN if host_runs_it else Severity.ERROR


SEVERITY_NOTES = {  # rules whose severity follows neither the rule alone nor the target's declarations
    "R009": "WARN on every target and in both profiles while the host still runs the node (onnxruntime on the "
            "extracted CPU part, NumPy or an npuready.runtime function); ERROR when nothing implements it on the "
            "host (a custom operator, data-dependent post-processing without an npuready.runtime function).",
}


def finding(rule: Rule, sub: Graph, node: Node, target: Target, options: LintOptions, problem: str,
            **evidence) -> Finding:
    """``rule``'s finding on ``node``: the rule's ``problem`` plus how (or whether) the target runs it, at the
    severity the profile gives it. The evidence records the target's mode and the profile."""
    support = node_support(sub, node, target)
    sev = severity(rule, support, options.profile)
    if support.runs:  # say how it runs (and, in the portable profile, that it is still forbidden)
        message = f"{problem}; {support.how}" + (", but the portable profile forbids it"
                                                 if sev is Severity.ERROR else "")
    elif target.name in problem:  # the rule's problem already names the target's own reason (R005's allowlist)
        message = problem
    else:  # say why this target cannot run it
        message = f"{problem}; {support.how}"
    return rule.finding(node, message, sub.scope, severity=sev,
                        **evidence, target_mode=support.mode, profile=options.profile)


def matrix(rule: Rule, target: Target, profile: str) -> list[tuple[str, Severity | None, str]]:
    """(case, severity or None for "no finding", how) rows describing ``rule`` on ``target``: the rule's own
    check run on each case graph of ``npuready.lint.policy_cases`` (for generated docs)."""
    from npuready.lint.policy_cases import cases

    rows = []
    for case in cases(rule.id, target):
        found = [f for f in rule.check(case.graph, target, LintOptions(profile=profile)) if f.node == case.node]
        rows.append((case.label, found[0].severity if found else None, case.how or case.support(target).how))
    return rows
