"""Layout guess for a 4-D tensor: NCHW, NHWC, or unknown — a hint for calibration data, not a proof."""
from __future__ import annotations

from npuready.graph import Graph

# ops whose first input is NCHW by the ONNX definition
_NCHW_CONSUMERS = frozenset({"Conv", "ConvTranspose", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
                             "BatchNormalization", "InstanceNormalization", "LRN", "DepthToSpace", "SpaceToDepth"})


def guess_layout(graph: Graph, name: str) -> str:
    info = graph.info(name)
    if info.shape is None or len(info.shape) != 4:
        return "other" if info.shape is not None else "unknown"
    for c in graph.consumers.get(name, ()):
        if c.op_type in _NCHW_CONSUMERS and c.inputs and c.inputs[0] == name:
            return "NCHW"
        if c.op_type == "Transpose" and list(c.attr("perm", [])) == [0, 3, 1, 2]:
            return "NHWC"
    p = graph.producers.get(name)
    if p is not None and p.op_type in _NCHW_CONSUMERS:
        return "NCHW"
    if p is not None and p.op_type == "Transpose" and list(p.attr("perm", [])) == [0, 2, 3, 1]:
        return "NHWC"
    _, d1, _, d3 = info.shape
    if isinstance(d3, int) and isinstance(d1, int) and d3 in (1, 3, 4) and d1 > 4:
        return "NHWC"
    if isinstance(d1, int) and isinstance(d3, int) and d1 in (1, 3, 4) and d3 > 4:
        return "NCHW"
    return "unknown"
