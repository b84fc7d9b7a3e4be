"""Small helpers that build the bad/good example models rules carry (onnx.helper only)."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def value(name: str, shape: Sequence[int | str | None] | None, dtype: int = TensorProto.FLOAT) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, dtype, None if shape is None else list(shape))


def const(name: str, array: np.ndarray) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(array), name)


def weights(name: str, shape: Sequence[int], seed: int = 0) -> onnx.TensorProto:
    rng = np.random.default_rng(seed)
    return const(name, (rng.standard_normal(shape) * 0.1).astype(np.float32))


def model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
          initializers: Sequence[onnx.TensorProto] = (), name: str = "example", opset: int = OPSET,
          extra_opsets: Sequence[tuple[str, int]] = ()) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    m = helper.make_model(graph, opset_imports=opsets, producer_name="npuready-examples")
    m.ir_version = 8
    return m


def conv_relu(shape: Sequence[int | str] = (1, 3, 16, 16), channels: int = 64,
              name: str = "conv_relu") -> onnx.ModelProto:
    """Conv(3x3) → Relu with ``channels`` output channels; the canonical passing graph."""
    n, c, h, w = shape
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["y"], name="relu"),
    ]
    out_shape = [n, channels, h, w]
    return model(nodes, [value("x", shape)], [value("y", out_shape)],
                 [weights("w", (channels, c, 3, 3)), const("b", np.zeros(channels, np.float32))], name=name)
