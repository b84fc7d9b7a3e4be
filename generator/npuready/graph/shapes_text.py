"""Text rendering of ``shape_summary.shape_summary(graph)``: the one line lint, partition and cost print about
shapes."""
from __future__ import annotations


def shapes_line(shapes: dict) -> str:
    """How many shape ops were folded at compile time, how many nodes are known before inference, the pins,
    and what the importer rewrote (``imported: 35 BatchNormalization folded, …``)."""
    pinned = f"; pinned {shapes['pinned']}" if shapes.get("pinned") else ""
    gaps = shapes.get("unresolved_values")
    unresolved = (f"; {gaps} value(s) with a size no inference resolves (set by tensor values or an op no "
                  "inference covers)") if gaps else ""
    imported = f"; {shapes['imported']['summary']}" if shapes.get("imported") else ""
    return (f"shapes: {shapes['shape_ops_folded']} shape op(s) folded ({shapes['folded_nodes']} node(s) known "
            f"before inference){pinned}{unresolved}{imported}")
