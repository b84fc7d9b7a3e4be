"""Tiny hand-built graphs for the importer tests, and an onnxruntime comparison (helper, not a test file)."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(7)


def value(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def model(nodes, inputs, outputs, inits=(), opset=17):
    g = helper.make_graph(nodes, "tiny", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def bn_params(prefix: str, c: int):
    return [const(f"{prefix}_s", RNG.uniform(0.5, 2, c).astype(np.float32)),
            const(f"{prefix}_b", RNG.normal(size=c).astype(np.float32)),
            const(f"{prefix}_m", RNG.normal(size=c).astype(np.float32)),
            const(f"{prefix}_v", RNG.uniform(0.2, 3, c).astype(np.float32))]


def bn_node(prefix: str, x: str, y: str, name: str = "bn"):
    return helper.make_node("BatchNormalization", [x, f"{prefix}_s", f"{prefix}_b", f"{prefix}_m", f"{prefix}_v"],
                            [y], name=name, epsilon=1e-3)


def run(m: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # compare the graphs as written
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)


def assert_same_outputs(before: onnx.ModelProto, after: onnx.ModelProto, feeds: dict, atol: float = 1e-5) -> None:
    """Every output equal within ``atol`` relative to that output's scale (its largest magnitude)."""
    for a, b in zip(run(before, feeds), run(after, feeds)):
        assert a.shape == b.shape
        scale = max(float(np.abs(a).max()), 1e-12)
        assert float(np.abs(a - b).max()) <= atol * scale


def ops(m: onnx.ModelProto) -> list[tuple[str, str]]:
    return [(n.name, n.op_type) for n in m.graph.node]
