"""R008 — ops outside the ONNX standard operator set (custom domains, unknown ops)."""
from __future__ import annotations

import onnx.defs
from onnx import helper

from npuready.graph import Graph, Node
from npuready.lint import examples as ex
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target


def problem(graph: Graph, node: Node) -> str | None:
    """Why ``node`` is not a standard ONNX operator at the model's opset, or None."""
    domain = node.domain or ""
    opsets = graph.opsets
    if not node.is_standard:
        if domain not in opsets:
            return f"domain '{domain}' is not declared in the model's opset_import"
        if domain.startswith("ai.onnx."):
            return (f"'{domain}' is an ONNX domain outside the default operator set (classical ML, training or "
                    "preview ops), which neural-network accelerators do not lower")
        return f"custom domain '{domain}': only the runtime that registered it knows its semantics"
    version = opsets.get("", opsets.get("ai.onnx"))
    if version is None:
        return "the default ONNX domain is not declared in the model's opset_import"
    if not onnx.defs.has(node.op_type, version, ""):
        return f"no ONNX operator '{node.op_type}' exists at opset {version}"
    return None


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if (why := problem(sub, node)) is not None:
            findings.append(RULE.finding(node, why, sub.scope, value=f"{node.domain or 'ai.onnx'}::{node.op_type}",
                                         limit="standard ONNX operator (domain '' / ai.onnx)"))
    return findings


def _bad():
    m = ex.conv_relu(name="r008_bad")
    m.graph.node[-1].CopyFrom(helper.make_node("FusedRelu", ["c"], ["y"], name="custom_relu", domain="com.example"))
    m.opset_import.append(helper.make_opsetid("com.example", 1))
    return m


def _good():
    return ex.conv_relu(name="r008_good")


RULE = Rule(
    id="R008",
    severity=Severity.ERROR,
    title="Op outside the ONNX standard",
    why="An NPU compiler lowers only operators whose semantics it knows; an op from a custom domain (or a name "
        "ONNX does not define at the model's opset) has no standard meaning, so compilation fails with "
        "'unsupported node' - exactly the late failure linting exists to prevent. It blocks, because nothing "
        "about the op can be checked.",
    fix="Re-export with standard ONNX ops (disable custom-op/contrib fusions, e.g. use onnxruntime's basic "
        "optimisation level or export without vendor extensions), or cut the op out to run on the CPU.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="Flagged: any domain other than '' / ai.onnx (including ai.onnx.ml, ai.onnx.preview, "
          "ai.onnx.preview.training and runtime contrib domains such as com.microsoft), domains missing from "
          "opset_import, and default-domain op names ONNX does not define at the model's opset. Model-local "
          "functions are inlined by the loader first, so their standard bodies are linted instead.",
)
