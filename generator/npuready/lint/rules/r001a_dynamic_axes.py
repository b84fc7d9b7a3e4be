"""R001a — no dynamic axes, anywhere, no exemption."""
from __future__ import annotations

from npuready.graph import Graph
from npuready.graph.dynamic import input_dependent
from npuready.lint import examples as ex
from npuready.lint.data_dependent import tainted_values
from npuready.lint.rule import Finding, LintOptions, Rule, Severity
from npuready.targets import Target


def _dynamic_dims(shape) -> list[int]:
    return [i for i, d in enumerate(shape) if not (isinstance(d, int) and d >= 0)]


def check(graph: Graph, target: Target, options: LintOptions) -> list[Finding]:
    findings: list[Finding] = []
    tainted = tainted_values(graph)  # sizes set by a data-dependent op: reported once, by R002
    depends = input_dependent(graph)  # shapes are resolved: what is left non-static, does it follow from an input?
    for io, kind in [(t, "input") for t in graph.inputs] + [(t, "output") for t in graph.outputs]:
        if io.name in tainted:
            continue
        if io.shape is None:
            findings.append(RULE.finding(None, f"graph {kind} '{io.name}' has unknown rank", value="unknown rank",
                                         limit="all dimensions static", tensor=io.name))
        elif dims := [i for i in _dynamic_dims(io.shape) if kind == "input" or depends(io.shape[i])]:
            findings.append(RULE.finding(None, f"graph {kind} '{io.name}' has dynamic axes {dims} in shape {io.shape_text()}",
                                         value=io.shape_text(), limit="all dimensions static", tensor=io.name, axes=dims))
    io_names = {t.name for t in graph.inputs} | set(graph.output_names)
    for sub, node in graph.walk():
        for out in node.outputs:
            if not out or out in io_names or out in tainted:
                continue
            info = sub.tensors.get(out)
            if info is None or info.shape is None:
                continue  # unknown after inference: reported once through the graph-level note
            if dims := [i for i in _dynamic_dims(info.shape) if depends(info.shape[i])]:
                findings.append(RULE.finding(node, f"output '{out}' has dynamic axes {dims} in shape {info.shape_text()}",
                                             sub.scope, value=info.shape_text(), limit="all dimensions static",
                                             tensor=out, axes=dims))
    return findings


def _bad():
    return ex.conv_relu(shape=("N", 3, 16, 16), name="r001a_bad")


def _good():
    return ex.conv_relu(shape=(1, 3, 16, 16), name="r001a_good")


RULE = Rule(
    id="R001a",
    severity=Severity.ERROR,
    title="No dynamic axes",
    why="NPU compilers plan memory and tiling statically; a symbolic or unknown dimension on a graph input, output "
        "or intermediate value makes the compiled buffer sizes undefined.",
    fix="Export with static shapes (e.g. torch.onnx.export without dynamic_axes) or fix the dims with "
        "onnxruntime.tools.make_dynamic_shape_fixed.",
    check=check,
    bad_example=_bad,
    good_example=_good,
    notes="No exemption, ever: a fixed batch of T frames is still static and is R001b's business, not R001a's. "
          "Dims that are dynamic only because a data-dependent op (NonZero, NonMaxSuppression, ...) produced them "
          "are reported once, at their origin, by R002. A dimension of 0 is static. Shapes are resolved before the "
          "rule runs (onnx shape inference, then onnxruntime's symbolic shape inference, which evaluates "
          "shape computations such as Shape→Gather→Concat→Reshape), and the rule reports only dims that follow "
          "from a symbolic or unknown graph-input dim: pin those with --batch / --input-shape to see the "
          "static result.",
)
