"""Simulated what-ifs on an ONNX graph: rewrite a few nodes, re-run the cost model and the linter.

Used to put a number on a prescription before anyone retrains: "swap these activations" is
estimated by replacing the nodes in place by the target's supported activation; "replace this
norm" by bypassing it (an upper bound of the saving). The rewritten graph is never shipped; its
cycles are simulated like every cost figure.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import onnx
from onnx import helper, numpy_helper

from npuready.targets import Target
from npuready.targets.gelu_pattern import gelu_span  # noqa: F401  (re-exported: intake.prescribe reads it here)

# Replacement preference for an activation the target cannot run (as npuready.surgery.swap: closest shape
# first, cheapest last). "Clip" stands for ReLU6.
REPLACEMENT_OPS = ("HardSwish", "Clip", "Relu")


def replacement_op(target: Target) -> str | None:
    for op in REPLACEMENT_OPS:
        if target.runs_on_npu(op):
            return op
    return None


def _copy(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy whose main-graph nodes all carry the names the Graph view (and so lint findings) use."""
    from npuready.graph import load

    g = load(model)
    names = {id(n.proto): n.name for n in g.nodes}
    m = onnx.ModelProto()
    m.CopyFrom(g.model)
    for node, orig in zip(m.graph.node, g.model.graph.node):
        node.name = names.get(id(orig), node.name)
    return m


def swap_ops(model: onnx.ModelProto, nodes: Iterable[str], new_op: str) -> onnx.ModelProto:
    """Replace the named single-output nodes by ``new_op`` on their first input (Clip gets 0..6). An Erf that
    is the core of an exported GELU is replaced together with its pattern (Div, Add, Mul, Mul)."""
    from npuready.graph import load

    m = _copy(model)
    wanted = set(nodes)
    graph = load(m)
    spans = {}
    for name in list(wanted):
        if graph.node(name).op_type == "Erf" and (span := gelu_span(graph, name)):
            spans[span[2][-1]] = span
            wanted -= {name}
    drop = {n for _, _, chain in spans.values() for n in chain[:-1]}
    opset = next((o.version for o in m.opset_import if o.domain in ("", "ai.onnx")), 1)
    for i, node in enumerate(m.graph.node):
        if node.name in spans:
            x, out, _ = spans[node.name]
            m.graph.node[i].CopyFrom(_activation(new_op, x, out, node.name, opset))
        elif node.name in wanted:
            m.graph.node[i].CopyFrom(_activation(new_op, node.input[0], node.output[0], node.name, opset))
    keep = [n for n in m.graph.node if n.name not in drop]
    del m.graph.node[:]
    if new_op == "Clip" and opset >= 11:  # bounds as Constant nodes: valid at every IR version
        m.graph.node.extend([helper.make_node("Constant", [], [name], name=name, value=numpy_helper.from_array(
            np.array(v, np.float32), name)) for name, v in (("__whatif_clip_lo", 0.0), ("__whatif_clip_hi", 6.0))])
    m.graph.node.extend(keep)
    return m


def _activation(op: str, x: str, out: str, name: str, opset: int) -> onnx.NodeProto:
    if op != "Clip":
        return helper.make_node(op, [x], [out], name=name)
    if opset < 11:  # Clip-6: bounds are attributes
        return helper.make_node("Clip", [x], [out], name=name, min=0.0, max=6.0)
    return helper.make_node("Clip", [x, "__whatif_clip_lo", "__whatif_clip_hi"], [out], name=name)


def used_tensors(model: onnx.ModelProto) -> set[str]:
    """Tensors some node reads or the graph outputs."""
    return {i for n in model.graph.node for i in n.input} | {o.name for o in model.graph.output}


def equivalent(node: onnx.NodeProto, used: set[str]) -> str | None:
    """The op that computes exactly what ``node`` computes at inference, if there is one (Dropout: only when
    its mask output is unused)."""
    if node.op_type == "Sum" and len(node.input) == 2:
        return "Add"
    if node.op_type == "Dropout" and all(not o or o not in used for o in node.output[1:]):
        return "Identity"
    return None


def rewrite_equivalents(model: onnx.ModelProto, nodes: Iterable[str]) -> onnx.ModelProto:
    """Replace the named nodes by their exact inference equivalent (Sum of two → Add, Dropout → Identity)."""
    m = _copy(model)
    wanted = set(nodes)
    used = used_tensors(m)
    for i, node in enumerate(m.graph.node):
        new = equivalent(node, used) if node.name in wanted else None
        if new == "Add":
            m.graph.node[i].CopyFrom(helper.make_node("Add", list(node.input), [node.output[0]], name=node.name))
        elif new == "Identity":
            m.graph.node[i].CopyFrom(helper.make_node("Identity", [node.input[0]], [node.output[0]], name=node.name))
    return m


def bypass(model: onnx.ModelProto, nodes: Iterable[str]) -> onnx.ModelProto:
    """Turn the named nodes into Identity of their first input (the norm removed: an upper bound)."""
    m = _copy(model)
    wanted = set(nodes)
    for i, node in enumerate(m.graph.node):
        if node.name in wanted:
            m.graph.node[i].CopyFrom(helper.make_node("Identity", [node.input[0]], [node.output[0]], name=node.name))
    return m


def measure(model: onnx.ModelProto, target: Target) -> dict:
    """Simulated cycles, NPU segments and lint ERROR count of a (rewritten) model."""
    from npuready.cost import estimate
    from npuready.graph import load
    from npuready.lint import lint
    from npuready.partition import plan_partition

    graph = load(model)
    report = lint(graph, target=target)
    plan = plan_partition(graph, target)
    return {"cycles": int(estimate(graph, target).cycles), "lint_errors": len(report.errors),
            "npu_segments": len(plan.npu_segments), "verdict": plan.verdict}
