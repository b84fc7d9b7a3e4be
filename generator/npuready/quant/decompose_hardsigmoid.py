"""HardSigmoid → the int8 builtins a TFLite converter emits for it, before quantisation.

TFLite has no HardSigmoid builtin. A converter lowers Keras' ``hard_sigmoid`` (and PyTorch's
``Hardsigmoid`` through ai-edge-torch) to ``relu6(6αx + 6β) / 6``: [MUL] + ADD with a fused RELU6 + MUL,
every intermediate int8. Left whole, npuready's int8 export has to write HardSigmoid as a 256-entry
table read by GATHER, which Arm Vela (and most NPU compilers) leave on the CPU. Rewriting the float ONNX
graph the same way before calibration gives each intermediate its own calibrated scale, and the
integer engine and LiteRT then run the same int8 Add/Mul kernels, which Vela places on the NPU:

``y = Mul(Clip(Add([Mul(x, 6α)], 6β), 0, 6), 1/6)``

The multiply by ``6α`` is left out when it is 1 (PyTorch's Hardsigmoid: α = 1/6, β = 1/2). The float
result equals HardSigmoid's up to float32 rounding; the integer build differs from a table by the extra
requantisation of the intermediates (measured in the experiments that use it, never assumed).
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

from npuready.graph.hardsigmoid import DEFAULT_ALPHA, DEFAULT_BETA, scales_input


def _scalar(g, name: str, value: float) -> str:
    g.initializer.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
    return name


def decompose_hardsigmoid(model: onnx.ModelProto) -> tuple[onnx.ModelProto, int]:
    """A copy of ``model`` with every HardSigmoid rewritten; (model, count)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    if not any(n.op_type == "HardSigmoid" and n.domain in ("", "ai.onnx") for n in m.graph.node):
        return m, 0
    g = m.graph
    nodes, count = [], 0
    for node in g.node:
        if node.op_type != "HardSigmoid" or node.domain not in ("", "ai.onnx"):
            nodes.append(node)
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        alpha, beta = np.float32(attrs.get("alpha", DEFAULT_ALPHA)), np.float32(attrs.get("beta", DEFAULT_BETA))
        base = node.name or node.output[0]
        src = node.input[0]
        if scales_input(alpha):
            scaled = f"{base}#scaled"
            nodes.append(helper.make_node("Mul", [src, _scalar(g, f"{base}#six_alpha", 6 * alpha)], [scaled],
                                          name=f"{base}/scale"))
            src = scaled
        shifted, clipped = f"{base}#shifted", f"{base}#relu6"
        nodes.append(helper.make_node("Add", [src, _scalar(g, f"{base}#six_beta", 6 * beta)], [shifted],
                                      name=f"{base}/shift"))
        nodes.append(helper.make_node("Clip", [shifted, _scalar(g, f"{base}#zero", 0.0),
                                               _scalar(g, f"{base}#six", 6.0)], [clipped], name=f"{base}/relu6"))
        nodes.append(helper.make_node("Mul", [clipped, _scalar(g, f"{base}#one_sixth", 1 / 6)], [node.output[0]],
                                      name=f"{base}/divide"))
        count += 1
    del g.node[:]
    g.node.extend(nodes)
    return m, count
