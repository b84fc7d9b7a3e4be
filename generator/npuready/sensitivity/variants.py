"""The QDQ variants the sensitivity table measures, one per layer and quantiser.

- ``float``: the layer kept in float (``quant.keep_float``: float weights and bias, float compute; its input
  and output activations stay int8) — what ``quantize --keep-float`` builds and the integer engine runs.
- ``output``: only the layer's output activation left unrounded: its QuantizeLinear → DequantizeLinear pair
  becomes a Clip to the same int8 range, so saturation (and any Relu/Clip the quantiser folded into that
  range) stays and only the rounding goes. A diagnostic: it says how much the activation quantiser costs.
"""
from __future__ import annotations

import onnx
from onnx import helper, numpy_helper

from npuready.quant.keep_float import Layer, keep_float

KINDS = ("float", "output")


def output_unrounded(qdq: onnx.ModelProto, layer: Layer) -> onnx.ModelProto:
    """``qdq`` with ``layer``'s output QuantizeLinear/DequantizeLinear pair replaced by a Clip to its range."""
    m = onnx.ModelProto()
    m.CopyFrom(qdq)
    if layer.quantize is None:
        return m
    inits = {i.name: i for i in m.graph.initializer}
    q = next(n for n in m.graph.node if n.name == layer.quantize)
    scale = float(numpy_helper.to_array(inits[q.input[1]]).reshape(()))
    zp = int(numpy_helper.to_array(inits[q.input[2]]).reshape(())) if len(q.input) > 2 and q.input[2] else 0
    lo, hi = f"{q.name}_unrounded_lo", f"{q.name}_unrounded_hi"
    m.graph.initializer.extend([numpy_helper.from_array(_f32((-128 - zp) * scale), lo),
                                numpy_helper.from_array(_f32((127 - zp) * scale), hi)])
    for k, n in enumerate(m.graph.node):
        if n.op_type == "DequantizeLinear" and n.input[0] == q.output[0]:
            m.graph.node[k].CopyFrom(helper.make_node("Clip", [q.input[0], lo, hi], list(n.output),
                                                      name=f"{n.name}_unrounded"))
    readers = {i for n in m.graph.node for i in n.input} | {o.name for o in m.graph.output}
    if q.output[0] not in readers:
        m.graph.node.remove(q)
    return m


def variant(qdq: onnx.ModelProto, float_model: onnx.ModelProto, layer: Layer, kind: str) -> onnx.ModelProto:
    if kind == "float":
        return keep_float(qdq, float_model, [layer.name])
    if kind == "output":
        return output_unrounded(qdq, layer)
    raise ValueError(f"variant kind {kind!r}: use one of {KINDS}")


def _f32(v: float):
    import numpy as np

    return np.asarray(v, dtype=np.float32)
