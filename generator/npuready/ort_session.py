"""The one way npuready opens an onnxruntime session that computes a graph literally.

Graph optimisations off (no fused kernels: a QDQ graph runs DequantizeLinear → float op →
QuantizeLinear as written), one intra-op thread, CPU provider; ``extra_outputs`` exposes
intermediate tensors as graph outputs.
"""
from __future__ import annotations

from typing import Iterable

import onnx


def literal_session(model: onnx.ModelProto, extra_outputs: Iterable[str] = (), quiet: bool = False):
    import onnxruntime as ort

    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for name in extra_outputs:
        if name not in have:
            m.graph.output.append(onnx.ValueInfoProto(name=name))
            have.add(name)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    if quiet:
        so.log_severity_level = 3
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
