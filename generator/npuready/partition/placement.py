"""Where each node runs: NPU, CPU, or "folded" (a compile-time constant that follows its consumers).

Decisions, in order (the first that applies wins; ``reason`` records it):

1. **folded** — ``Graph.folded`` (``npuready.graph.fold``): ``Constant`` nodes, ``Shape``/``Size`` of a
   tensor whose shape is static, and any node whose inputs are all initializers or folded values (e.g. a
   Shape→Gather→Concat chain feeding a Reshape). They compute a value known before inference, so they never
   cross a CPU↔NPU boundary: extraction copies them into every part that reads them and they belong to no
   segment.
2. **cpu: lint** — the node has an ERROR finding from ``npuready.lint`` (``LintReport.blocked_nodes``).
3. **cpu: domain / subgraph** — custom-domain operators and control flow (If/Loop/Scan).
4. **cpu: dynamic shape** — an input or output whose shape is not fully static (NPU buffers are planned
   statically; onnxruntime's usability checker applies the same condition).
5. **cpu: unsupported** — ``npuready.targets.support.node_support`` says the target does not run the node
   (its op table, activation modes, [norms] and [resize] declarations, with their limits); the reason
   quotes why. This is the same function the lint severity policy reads, so under the default target
   profile a node with a WARN/INFO finding ("runs on T via …") is placed here on the NPU.
6. **npu** — everything else; the reason says how it runs when the target's declarations say so.

With ``edges="cpu"`` a last pass moves the body's outer edges to the CPU: every NPU node that has no
MAC-op (Conv/ConvTranspose/Gemm/MatMul) ancestor (pre-processing: scaling, normalisation, layout) or no
MAC-op descendant (post-processing: sigmoid, decoding) — the "export logits, decode on the CPU" design.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from npuready.graph import Graph, Node
from npuready.partition.macs import MAC_OPS
from npuready.targets import Target
from npuready.targets.support import node_support

NPU, CPU, FOLDED = "npu", "cpu", "folded"
EDGE_POLICIES = ("npu", "cpu")


@dataclass(frozen=True)
class Placement:
    node: str
    op_type: str
    device: str  # npu | cpu | folded
    reason: str


def _static(graph: Graph, names) -> bool:
    return all(graph.info(n).is_static for n in names if n)


def place(graph: Graph, target: Target, lint_errors: Mapping[str, tuple[str, ...]],
          edges: str = "npu") -> dict[str, Placement]:
    """Placement of every main-graph node. ``lint_errors`` maps node name → ERROR rule ids.

    The lint run (``npuready.lint.api.run_lint``) calls this once per model and target under the "npu"
    edges policy; the planner and the cost model read that result, through ``with_edges`` for "cpu"."""
    folded = graph.folded
    const_values = set(graph.initializer_names) | {o for n in graph.nodes if n.name in folded for o in n.outputs}
    out: dict[str, Placement] = {}
    for node in graph.nodes:
        out[node.name] = Placement(node.name, node.op_type,
                                   *_decide(graph, target, node, folded, const_values, lint_errors))
    return with_edges(graph, out, edges)


def with_edges(graph: Graph, placements: Mapping[str, Placement], edges: str) -> dict[str, Placement]:
    """``placements`` (decided under the "npu" edges policy) under ``edges``: a new dict, the input unchanged."""
    out = dict(placements)
    if edges == "cpu":
        _edges_to_cpu(graph, out)
    return out


def _decide(graph: Graph, target: Target, node: Node, folded: frozenset[str], const_values: set[str],
            lint_errors: Mapping[str, tuple[str, ...]]) -> tuple[str, str]:
    if node.name in folded:
        return FOLDED, "folded: value known before inference (follows its consumers)"
    if rules := lint_errors.get(node.name):
        return CPU, "cpu: lint ERROR " + ",".join(sorted(set(rules)))
    if not node.is_standard:
        return CPU, f"cpu: custom domain '{node.domain}'"
    if node.subgraphs:
        return CPU, "cpu: control flow with subgraphs"
    runtime_values = [i for i in node.inputs if i and i not in const_values] + [o for o in node.outputs if o]
    if not _static(graph, runtime_values):
        return CPU, "cpu: dynamic or unknown shape"
    support = node_support(graph, node, target)
    if not support.runs:
        return CPU, f"cpu: {support.how}" if support.mode == "unsupported" else f"cpu: {node.op_type}: {support.how}"
    if support.depends_on and support.depends_on != node.name and support.depends_on in lint_errors:
        return CPU, f"cpu: {node.op_type}: {target.name} runs it only as part of a pattern whose core " \
                    f"'{support.depends_on}' has a lint ERROR"
    return NPU, "npu: supported" if support.mode == "native" else f"npu: {support.how}"


def _edges_to_cpu(graph: Graph, placements: dict[str, Placement]) -> None:
    producers, consumers = graph.producers, graph.consumers
    mac_ancestor: dict[str, bool] = {}
    for node in graph.nodes:  # topological order
        mac_ancestor[node.name] = node.op_type in MAC_OPS or any(
            mac_ancestor.get(producers[i].name, False) for i in node.inputs if i in producers)
    mac_descendant: dict[str, bool] = {}
    for node in reversed(graph.nodes):
        mac_descendant[node.name] = node.op_type in MAC_OPS or any(
            mac_descendant.get(c.name, False) for o in node.outputs for c in consumers.get(o, ()))
    for node in graph.nodes:
        p = placements[node.name]
        if p.device != NPU:
            continue
        if not mac_ancestor[node.name]:
            placements[node.name] = Placement(p.node, p.op_type, CPU,
                                              "cpu: edges policy (pre-processing before the first MAC op)")
        elif not mac_descendant[node.name]:
            placements[node.name] = Placement(p.node, p.op_type, CPU,
                                              "cpu: edges policy (post-processing after the last MAC op)")
