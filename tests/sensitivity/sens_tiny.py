"""A tiny float classifier (Conv+Relu, Conv+Relu, GlobalAveragePool, Flatten, Gemm) and inputs for it."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

LAYERS = ["c1", "c2", "fc"]


def tiny_model(seed: int = 0) -> onnx.ModelProto:
    rng = np.random.default_rng(seed)

    def init(name, *shape):
        return numpy_helper.from_array(rng.normal(scale=0.5, size=shape).astype(np.float32), name)

    inits = [init("w1", 4, 1, 3, 3), init("b1", 4), init("w2", 4, 4, 3, 3), init("b2", 4), init("wf", 5, 4),
             init("bf", 5)]
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["a1"], name="c1", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["a1"], ["r1"], name="relu1"),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["a2"], name="c2", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["a2"], ["r2"], name="relu2"),
             helper.make_node("GlobalAveragePool", ["r2"], ["p"], name="gap"),
             helper.make_node("Flatten", ["p"], ["f"], name="flat"),
             helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], name="fc", transB=1)]
    g = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m)
    return m


def tiny_inputs(n: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, 1, 8, 8)).astype(np.float32)


def tiny_qdq(model: onnx.ModelProto, n: int = 16):
    from npuready.quant.ptq import quantize_model

    x = tiny_inputs(n)
    return quantize_model(model, [x[i:i + 1] for i in range(n)], "minmax")
