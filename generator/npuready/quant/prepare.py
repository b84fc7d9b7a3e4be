"""Model clean-up before quantisation: constants behind Identity/Constant nodes become initializers.

torch.onnx.export writes shared parameters as ``Identity(initializer)`` and literals as ``Constant``
nodes; a QDQ quantiser would treat those as activations (QuantizeLinear at run time). Folding them
keeps weights and biases constant, as the integer export needs.
"""
from __future__ import annotations

import onnx
from onnx import numpy_helper


def fold_constants(model: onnx.ModelProto) -> onnx.ModelProto:
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    graph_outputs = {o.name for o in g.output}
    keep = []
    for node in g.node:
        out = node.output[0] if node.output else ""
        if out in graph_outputs:
            keep.append(node)
        elif node.op_type == "Identity" and node.input[0] in inits:
            arr = numpy_helper.to_array(inits[node.input[0]])
            inits[out] = numpy_helper.from_array(arr, out)
            g.initializer.append(inits[out])
        elif node.op_type == "Constant" and len(node.attribute) == 1 and node.attribute[0].name == "value":
            t = onnx.TensorProto()
            t.CopyFrom(node.attribute[0].t)
            t.name = out
            inits[out] = t
            g.initializer.append(t)
        else:
            keep.append(node)
    del g.node[:]
    g.node.extend(keep)
    return m
