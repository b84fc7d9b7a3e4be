import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper


def make_model(nodes, inputs, outputs, inits=(), opset=17):
    graph = helper.make_graph(nodes, "t", inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def vi(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def weight(name, shape, seed=0):
    return numpy_helper.from_array(np.random.default_rng(seed).standard_normal(shape).astype(np.float32), name)


@pytest.fixture
def conv_relu():
    """3x3 conv 16->32 on 16x16 (pads 1) followed by Relu."""
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    return make_model(nodes, [vi("x", [1, 16, 16, 16])], [vi("y", [1, 32, 16, 16])],
                      [weight("w", [32, 16, 3, 3]), weight("b", [32])])


@pytest.fixture
def onnx_helpers():
    """make_model / vi / weight for tests that build their own graphs (no cross-test imports)."""
    import types

    return types.SimpleNamespace(make_model=make_model, vi=vi, weight=weight)
