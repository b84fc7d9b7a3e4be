"""R004 — WARN: output channels that leave part of the MAC array idle (tiling inefficiency)."""
from __future__ import annotations

from npuready.graph import Graph, Node, families
from npuready.lint import examples as ex
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target

CONV_LIKE = families.CONV | families.QUANTIZED_CONV
MATMUL_LIKE = families.MATMUL | families.QUANTIZED_MATMUL


def output_channels(graph: Graph, node: Node) -> int | None:
    """Output channels (conv) or output features (gemm/matmul): inferred output shape first, weights second."""
    out = graph.info(node.outputs[0]).shape if node.outputs else None
    if node.op_type in CONV_LIKE:
        if out is not None and len(out) >= 2 and isinstance(out[1], int):
            return out[1]
        w_index = 3 if node.op_type == "QLinearConv" else 1
        w = graph.info(node.inputs[w_index]).shape if len(node.inputs) > w_index else None
        if w is None or len(w) < 2:
            return None
        if node.op_type == "ConvTranspose":
            return w[1] * int(node.attr("group", 1)) if isinstance(w[1], int) else None
        return w[0] if isinstance(w[0], int) else None
    if out is not None and len(out) >= 1 and isinstance(out[-1], int):
        return out[-1]
    b_index = 3 if node.op_type == "QLinearMatMul" else 1
    b = graph.info(node.inputs[b_index]).shape if len(node.inputs) > b_index else None
    if b is None or not b:
        return None
    dim = b[0] if (node.op_type == "Gemm" and node.attr("transB", 0)) else b[-1]
    return dim if isinstance(dim, int) else None


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    cols = target.array_cols
    findings: list[Finding] = []
    for sub, node in graph.walk():
        if not node.is_standard or node.op_type not in CONV_LIKE | MATMUL_LIKE:
            continue
        c = output_channels(sub, node)
        if c is None or c <= 0 or c % cols == 0:
            continue
        tiles = -(-c // cols)
        use = c / (tiles * cols)
        findings.append(RULE.finding(node, f"{c} output channels are not a multiple of the {cols}-column array: "
                                           f"{tiles} tile(s), {use:.0%} of the columns busy", sub.scope,
                                     value=c, limit=f"multiple of {cols}", utilisation=round(use, 4)))
    return findings


def _bad():
    return ex.conv_relu(channels=10, name="r004_bad")


def _good():
    return ex.conv_relu(channels=64, name="r004_good")


RULE = Rule(
    id="R004",
    severity=Severity.WARN,
    title="Channels not a multiple of the array width",
    why="A systolic array computes output channels in tiles of its column count; a remainder tile leaves columns "
        "idle. The graph still runs correctly, so this is a warning about efficiency only.",
    fix="Round the output channels of Conv/Gemm/MatMul up (or down) to a multiple of the target's array_cols "
        "when designing the model; ignore it for small heads where the waste is negligible.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="The limit is the target's array_cols (see docs/targets.md). Applies to Conv, ConvTranspose, ConvInteger, "
          "QLinearConv, Gemm, MatMul, MatMulInteger and QLinearMatMul, including inside subgraphs. Never blocks.",
)
