"""R005 — activations outside the target's measured allowlist."""
from __future__ import annotations

from onnx import helper

from npuready.graph import Graph
from npuready.lint import examples as ex
from npuready.lint import policy
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target
from npuready.targets.gelu_pattern import gelu_members
from npuready.targets.support import ACTIVATION_OPS  # noqa: F401  (re-exported: intake.risks, partition.nnapi_mirror)

ALLOWED_MODES = ("fused", "lut")


def allowed(target: Target) -> list[str]:
    return sorted(op for op, mode in target.activations.items() if mode in ALLOWED_MODES)


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if not node.is_standard:
            continue
        mode = target.activation_mode(node.op_type)
        if node.op_type not in ACTIVATION_OPS and mode is None:
            continue
        if mode in ALLOWED_MODES:
            continue
        where = {"host": "is marked 'host' (runs on the CPU)",
                 "lowered": "has no operator and is lowered to other ops"}.get(mode, "is not in the allowlist")
        problem = f"activation {node.op_type} {where} of target {target.name}"
        if node.name in gelu_members(sub):
            problem += ", but it is the core of an exact-GELU pattern"
        findings.append(policy.finding(RULE, sub, node, target, options, problem, value=node.op_type,
                                       mode=mode or "absent", limit=f"one of {allowed(target)}"))
    return findings


def _bad():
    m = ex.conv_relu(name="r005_bad")
    m.graph.node[-1].CopyFrom(helper.make_node("Softsign", ["c"], ["y"], name="softsign"))
    return m


def _good():
    return ex.conv_relu(name="r005_good")


RULE = Rule(
    id="R005",
    severity=Severity.ERROR,
    title="Activation outside the target's allowlist",
    why="An NPU implements only some non-linearities (fused into the conv epilogue or as a lookup table); any "
        "other activation splits the graph or fails to compile. The allowlist is decided by measurement: every "
        "allowed activation has a passing probe.",
    fix="Replace the activation by an allowed one (e.g. ReLU6/HardSwish), or export logits and apply it on the CPU "
        "(detector heads: export logits, apply sigmoid with NMS in post-processing).",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="An activation is allowed when the target's [activations] table marks it 'fused' or 'lut'; 'host' or "
          "absent is a finding. Detector heads hit this with Sigmoid: the decision was to export logits "
          "and apply sigmoid on the CPU, and also to add a Sigmoid probe so the allowlist rests on measurement. "
          "The probes (docs/support.md) are an onnxruntime baseline, not a statement about NPU silicon. "
          "Under the default target profile, an Erf at the core of torch's exact-GELU export (Div, Erf, Add, Mul, "
          "Mul below opset 20) is not an ERROR on a target that runs GELU: a converter turns the pattern into one "
          "GELU op, so the finding is INFO (lookup table) and says so; the portable profile keeps the ERROR.",
)
