"""Values a node reads, including the outer-scope values its If/Loop/Scan bodies use implicitly."""
from __future__ import annotations

from npuready.graph import Graph, Node


def node_reads(node: Node) -> tuple[str, ...]:
    names = [i for i in node.inputs if i]
    for sub in node.subgraphs:
        for name in _outer_refs(sub):
            if name not in names:
                names.append(name)
    return tuple(names)


def _outer_refs(graph: Graph) -> list[str]:
    local = set(graph.initializer_names) | {vi.name for vi in graph.proto.input}
    refs: list[str] = []
    for node in graph.nodes:
        for name in node_reads(node):
            if name not in local and name not in refs:
                refs.append(name)
        local.update(o for o in node.outputs if o)
    return refs
