"""R003 — 3D convolution and 3D pooling (closes the first checker's hole: pooling was not checked)."""
from __future__ import annotations

import numpy as np
from onnx import helper

from npuready.graph import Graph, Node, families
from npuready.lint import examples as ex
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target

CONV_OPS = families.CONV | families.QUANTIZED_CONV | {"DeformConv"}
POOL_OPS = frozenset({"MaxPool", "AveragePool", "LpPool", "MaxUnpool", "MaxRoiPool"})
LIMIT = 2  # spatial dims an NPU convolution/pooling engine handles


def spatial_rank(graph: Graph, node: Node) -> int | None:
    """Number of spatial dims of a conv/pool: from kernel_shape, else the weight's or the input's rank."""
    ks = node.attr("kernel_shape")
    if ks:
        return len(ks)
    if node.op_type in CONV_OPS:
        w_index = 3 if node.op_type == "QLinearConv" else 1
        if len(node.inputs) > w_index and (shape := graph.info(node.inputs[w_index]).shape) is not None:
            return len(shape) - 2
    if node.inputs and (shape := graph.info(node.inputs[0]).shape) is not None:
        return len(shape) - 2
    return None


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if not node.is_standard or node.op_type not in CONV_OPS | POOL_OPS:
            continue
        rank = spatial_rank(sub, node)
        if rank is not None and rank > LIMIT:
            kind = "convolution" if node.op_type in CONV_OPS else "pooling"
            findings.append(RULE.finding(node, f"{rank}D {kind} ({rank} spatial dims; limit {LIMIT})", sub.scope,
                                         value=rank, limit=LIMIT,
                                         kernel_shape=list(node.attr("kernel_shape", []) or [])))
    return findings


def _bad():
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv3d", kernel_shape=[3, 3, 3], pads=[1] * 6),
        helper.make_node("Relu", ["c"], ["y"], name="relu"),
    ]
    return ex.model(nodes, [ex.value("x", [1, 3, 4, 16, 16])], [ex.value("y", [1, 64, 4, 16, 16])],
                    [ex.weights("w", (64, 3, 3, 3, 3)), ex.const("b", np.zeros(64, np.float32))], name="r003_bad")


def _good():
    return ex.conv_relu(name="r003_good")


RULE = Rule(
    id="R003",
    severity=Severity.ERROR,
    title="No 3D convolution or 3D pooling",
    why="NPU convolution and pooling engines are built for two spatial dims; a 3D Conv/ConvTranspose or a 3D "
        "MaxPool/AveragePool/LpPool either fails to compile or falls back to the CPU.",
    fix="Model time with a Temporal Shift Module (2D convs on N*T frames with a channel shift along T) or "
        "(2+1)D factorisation instead of 3D ops; reshape 3D pooling into 2D pooling over merged axes.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="The first checker this project replaces looked only at Conv/ConvTranspose, so a MaxPool/AveragePool "
          "with a 3-D kernel passed every rule; this rule checks Conv, ConvTranspose, ConvInteger, QLinearConv, "
          "DeformConv, MaxPool, "
          "AveragePool, LpPool, MaxUnpool and MaxRoiPool, in the main graph and inside If/Loop/Scan subgraphs. "
          "Global pooling over a 5-D tensor is a reduction and is not flagged.",
)
