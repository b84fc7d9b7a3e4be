"""R006 — normalisation that does not fold into a preceding conv/gemm."""
from __future__ import annotations

import numpy as np
from onnx import helper

from npuready.graph import Graph
from npuready.lint import examples as ex
from npuready.lint import policy
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target
from npuready.targets.support import RUNTIME_NORMS, bn_fold_problem

NEVER_FOLDS = RUNTIME_NORMS
LIMIT = "BatchNormalization directly after Conv/ConvTranspose/Gemm"


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if not node.is_standard:
            continue
        if node.op_type in NEVER_FOLDS:
            problem = (f"{node.op_type} normalises with statistics computed at run time; it does not fold into a "
                       "preceding conv/gemm")
        elif node.op_type == "BatchNormalization" and (problem := bn_fold_problem(sub, node)):
            pass
        else:
            continue
        findings.append(policy.finding(RULE, sub, node, target, options, problem, value=node.op_type, limit=LIMIT))
    return findings


def _conv_norm_relu(norm: str, name: str):
    c = 64
    if norm == "BatchNormalization":
        norm_node = helper.make_node(norm, ["c", "s", "bias", "mean", "var"], ["n"], name="bn")
        extra = [ex.const("mean", np.zeros(c, np.float32)), ex.const("var", np.ones(c, np.float32))]
    else:
        norm_node = helper.make_node(norm, ["c", "s", "bias"], ["n"], name="instnorm")
        extra = []
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        norm_node,
        helper.make_node("Relu", ["n"], ["y"], name="relu"),
    ]
    inits = [ex.weights("w", (c, 3, 3, 3)), ex.const("b", np.zeros(c, np.float32)),
             ex.const("s", np.ones(c, np.float32)), ex.const("bias", np.zeros(c, np.float32)), *extra]
    return ex.model(nodes, [ex.value("x", [1, 3, 16, 16])], [ex.value("y", [1, c, 16, 16])], inits, name=name)


def _bad():
    return _conv_norm_relu("InstanceNormalization", "r006_bad")


def _good():
    return _conv_norm_relu("BatchNormalization", "r006_good")


RULE = Rule(
    id="R006",
    severity=Severity.ERROR,
    title="Normalisation that does not fold into conv/gemm",
    why="At inference BatchNorm directly after a Conv/Gemm folds into that layer's weights and costs nothing; "
        "LayerNorm, InstanceNorm, GroupNorm and friends normalise with statistics computed at run time and need "
        "reductions, division and square roots that NPU datapaths handle poorly, especially in INT8.",
    fix="Use BatchNorm directly after Conv/ConvTranspose/Gemm (it folds), or move the normalisation out of the "
        "NPU part of the graph; for transformer blocks, consider a BN-based variant or keep that stage on the host.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="Flagged: LayerNormalization, InstanceNormalization, GroupNormalization, LpNormalization, "
          "MeanVarianceNormalization, RMSNormalization; BatchNormalization in training mode, after anything other "
          "than Conv/ConvTranspose/Gemm, or after one whose output is also used elsewhere. Conv -> BN -> ReLU passes. "
          "Under the default target profile the target's [norms] table decides: a norm it runs natively is INFO, "
          "one it runs as an extra vector pass (an unfolded BatchNorm as per-channel Mul + Add) or through its "
          "compiler's lowering (LayerNorm via Vela's MEAN/SUB/MUL/RSQRT sequence) is WARN, and one it marks "
          "'host' (or a BatchNorm in training mode) stays an ERROR; the message says which.",
)
