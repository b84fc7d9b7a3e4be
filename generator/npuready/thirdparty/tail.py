"""The tail of a detector whose last Concat mixes box coordinates and class scores: its branches quantised apart.

YOLOv8 (nudenet) ends in ``Concat(boxes in pixels 0–320, sigmoid scores 0–1)``: one int8 scale over both
leaves the scores a code wide (320 / 255 ≈ 1.25 per code: every score rounds to 0 or 1.25), so no box of the
float model survives the post-processing threshold. Keeping the head in float (``quantize --keep-float``)
does not help: the Concat's output, the graph output, is still one int8 tensor on that scale. The fix
(``split_output_concat``) removes that Concat from the graph, so its inputs become the graph's outputs, each
quantised on its own scale; the Concat is then a float join on the CPU, where the decode runs anyway
(``verify.tasks.detection`` joins a split head's outputs along the Concat's axis before decoding). The float
values are the model's own: joined, the split float model's outputs equal the original output.
"""
from __future__ import annotations

import onnx
from onnx import helper

from ..errors import InputError


def split_output_concat(model: onnx.ModelProto, concat: str) -> onnx.ModelProto:
    """A copy of ``model`` without the Concat node ``concat`` that writes a graph output: its inputs (in
    order) become graph outputs in that output's place."""
    g = model.graph
    node = next((n for n in g.node if n.name == concat), None)
    if node is None or node.op_type != "Concat":
        raise InputError(f"split tail {concat!r}: no Concat node of that name in the model")
    outs = [o.name for o in g.output]
    if node.output[0] not in outs:
        raise InputError(f"split tail {concat}: its output {node.output[0]} is not a graph output")
    if any(node.output[0] in n.input for n in g.node):
        raise InputError(f"split tail {concat}: its output {node.output[0]} is read inside the graph too")
    m = onnx.ModelProto()
    m.CopyFrom(model)
    inferred = onnx.shape_inference.infer_shapes(m)
    infos = {v.name: v for v in (*inferred.graph.value_info, *inferred.graph.output, *inferred.graph.input)}
    m.graph.node.remove(next(n for n in m.graph.node if n.name == concat))
    k = outs.index(node.output[0])
    kept = list(m.graph.output)
    parts = [infos[i] if i in infos else helper.make_tensor_value_info(i, onnx.TensorProto.FLOAT, None)
             for i in node.input]
    del m.graph.output[:]
    m.graph.output.extend([*kept[:k], *parts, *kept[k + 1:]])
    return m
