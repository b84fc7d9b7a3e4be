"""R002 — ops whose output size depends on tensor values: move them to CPU post-processing."""
from __future__ import annotations

from onnx import TensorProto, helper

from npuready.graph import Graph
from npuready.lint import examples as ex
from npuready.lint.data_dependent import origins
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    for sub, node, why in origins(graph):
        outs = [o for o in node.outputs if o]
        shape = sub.info(outs[0]).shape_text() if outs else "?"
        findings.append(RULE.finding(node, f"output size depends on data: {why}", sub.scope,
                                     value=f"{node.op_type} -> {shape}", limit="output size fixed at compile time"))
    return findings


def _bad():
    m = ex.conv_relu(name="r002_bad")
    g = m.graph
    g.node.append(helper.make_node("NonZero", ["y"], ["idx"], name="nonzero"))
    del g.output[:]
    g.output.append(ex.value("idx", [4, None], TensorProto.INT64))
    return m


def _good():
    return ex.conv_relu(name="r002_good")


RULE = Rule(
    id="R002",
    severity=Severity.ERROR,
    title="Output size depends on data",
    why="NPUs compile a static memory plan; an op whose output size is known only at run time (NonZero, "
        "NonMaxSuppression, Unique, Compress, TopK/Range with computed inputs, ...) cannot be given a fixed buffer.",
    fix="Cut the graph before the op and run it as CPU post-processing (e.g. export logits/boxes and do NMS, "
        "thresholding and top-k decoding on the host); or make its size-setting input a constant.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="Always flagged: NonZero, NonMaxSuppression, Unique, StringSplit, RegexFullMatch. Flagged when the "
          "size-setting input is computed at run time (not a constant, and not foldable from constants and the "
          "shapes of static tensors) and shape inference with data propagation cannot prove the output static: "
          "Compress (condition), TopK (K), Range (any input), Reshape/Expand/ConstantOfShape/Tile/"
          "Slice/Pad/Resize/Upsample/OneHot/CenterCropPad (their shape-like inputs), and Loop scan outputs whose "
          "trip count or condition is computed. Dynamic dims downstream of such an op are reported here, once, "
          "not again by R001a.",
)
