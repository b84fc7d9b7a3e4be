"""R006 — normalisation that does not fold into a preceding conv/gemm."""
from __future__ import annotations

import numpy as np
from onnx import helper

from npuready.graph import Graph, Node
from npuready.lint import examples as ex
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target

NEVER_FOLDS = frozenset({"LayerNormalization", "InstanceNormalization", "GroupNormalization", "LpNormalization",
                         "MeanVarianceNormalization", "RMSNormalization"})
FOLD_HOSTS = frozenset({"Conv", "ConvTranspose", "Gemm"})


def _bn_problem(graph: Graph, node: Node) -> str | None:
    if node.attr("training_mode", 0):
        return "BatchNormalization in training mode computes batch statistics at run time"
    x = node.inputs[0] if node.inputs else ""
    producer = graph.producers.get(x)
    if producer is None or producer.op_type not in FOLD_HOSTS or not producer.is_standard:
        what = producer.op_type if producer is not None else "a graph input"
        return f"BatchNormalization follows {what}, not Conv/ConvTranspose/Gemm, so it cannot fold into weights"
    if len(graph.consumers.get(x, ())) > 1 or x in graph.output_names:
        return f"the output of {producer.op_type} '{producer.name}' is also used elsewhere, so the BN cannot fold into it"
    return None


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if not node.is_standard:
            continue
        if node.op_type in NEVER_FOLDS:
            findings.append(RULE.finding(node, f"{node.op_type} normalises with statistics computed at run time; it "
                                               "does not fold into a preceding conv/gemm", sub.scope,
                                         value=node.op_type, limit="BatchNormalization directly after Conv/ConvTranspose/Gemm"))
        elif node.op_type == "BatchNormalization" and (problem := _bn_problem(sub, node)):
            findings.append(RULE.finding(node, problem, sub.scope, value=node.op_type,
                                         limit="BatchNormalization directly after Conv/ConvTranspose/Gemm"))
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
          "than Conv/ConvTranspose/Gemm, or after one whose output is also used elsewhere. Conv -> BN -> ReLU passes.",
)
