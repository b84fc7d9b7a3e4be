"""``thirdparty.tail``: the layers of a detector's float tail, from the tail node back to the head convolutions."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.errors import InputError
from npuready.thirdparty.tail import tail_layers


def _detector() -> onnx.ModelProto:
    """backbone conv → (box conv → Mul by the stride, cls conv → Sigmoid) → Concat: YOLO's tail in small."""
    w = lambda *s: np.ones(s, np.float32)  # noqa: E731
    inits = [numpy_helper.from_array(w(4, 3, 1, 1), "wb"), numpy_helper.from_array(w(2, 4, 1, 1), "wbox"),
             numpy_helper.from_array(w(2, 4, 1, 1), "wcls"), numpy_helper.from_array(np.float32(8.0), "stride"),
             numpy_helper.from_array(np.array([1, 2, 16], np.int64), "shape")]
    nodes = [helper.make_node("Conv", ["x", "wb"], ["f"], name="backbone"),
             helper.make_node("Relu", ["f"], ["fr"], name="act"),
             helper.make_node("Conv", ["fr", "wbox"], ["b"], name="box"),
             helper.make_node("Reshape", ["b", "shape"], ["br"], name="box_flat"),
             helper.make_node("Mul", ["br", "stride"], ["bs"], name="scale"),
             helper.make_node("Conv", ["fr", "wcls"], ["c"], name="cls"),
             helper.make_node("Reshape", ["c", "shape"], ["cr"], name="cls_flat"),
             helper.make_node("Sigmoid", ["cr"], ["cs"], name="score"),
             helper.make_node("Concat", ["bs", "cs"], ["y"], name="tail", axis=1)]
    g = helper.make_graph(nodes, "det", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 16])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def test_the_tail_runs_back_to_the_head_convolutions_and_lists_the_quantised_layers():
    # the backbone stays int8; the Reshapes and the Sigmoid join the island without being named
    assert tail_layers(_detector(), "tail") == ["box", "scale", "cls"]


def test_an_unknown_tail_node_is_an_input_error():
    with pytest.raises(InputError, match="float tail 'nope': no node of that name"):
        tail_layers(_detector(), "nope")
