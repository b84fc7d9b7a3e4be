"""What shape resolution did to a graph, for the reports (lint, partition, cost): folded node counts, values
no inference sizes, the pins applied, and what the loader's importer rewrote. ``shapes_text.shapes_line``
renders it as one line. Report logic on top of the read-only view (``view.Graph``), not part of it.
"""
from __future__ import annotations

from typing import Any

from npuready.graph.dynamic import unresolved_values
from npuready.graph.view import Graph


def shape_summary(graph: Graph) -> dict[str, Any]:
    """Folded node counts and the pins applied; with ``imported`` (``npuready.importer.Imported.to_dict``) when
    the loader's importer rewrote the model."""
    out = {"shape_ops_folded": len(graph.shape_folded), "folded_nodes": len(graph.folded),
           "unresolved_values": len(unresolved_values(graph)), "pinned": graph.pinned or None}
    if graph.imported:
        out["imported"] = graph.imported.to_dict()
    return out
