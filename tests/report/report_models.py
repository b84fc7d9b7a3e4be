"""Small ONNX models for the report tests (built in code)."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def if_model() -> onnx.ModelProto:
    """Relu -> If(cond) with a 2-node then-branch and a 1-node else-branch -> output."""
    then_g = helper.make_graph(
        [helper.make_node("Neg", ["r"], ["t1"], name="then_neg"),
         helper.make_node("Abs", ["t1"], ["t"], name="then_abs")],
        "then", [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, [1, 4])])
    else_g = helper.make_graph([helper.make_node("Identity", ["r"], ["e"], name="else_id")], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [1, 4])])
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("If", ["cond"], ["y"], name="branch", then_branch=then_g, else_branch=else_g)]
    graph = helper.make_graph(nodes, "if_model",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4]),
                               helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def conv_model(batch="N") -> onnx.ModelProto:
    """Conv(3->4, 3x3, pad 1) -> Relu on a (batch, 3, 8, 8) input; ``batch`` may be symbolic."""
    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    graph = helper.make_graph(nodes, "conv_model",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 4, 8, 8])], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def chain_model(nodes: int) -> onnx.ModelProto:
    """``nodes`` Relu nodes in a chain on a (1, 4) input."""
    made = [helper.make_node("Relu", [f"t{i}" if i else "x"], [f"t{i + 1}" if i < nodes - 1 else "y"], name=f"relu{i}")
            for i in range(nodes)]
    graph = helper.make_graph(made, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def sum_model(inputs: int) -> onnx.ModelProto:
    """One Sum node over ``inputs`` graph inputs of shape (1, 4)."""
    graph = helper.make_graph([helper.make_node("Sum", [f"i{k}" for k in range(inputs)], ["y"], name="sum")], "sum",
                              [helper.make_tensor_value_info(f"i{k}", TensorProto.FLOAT, [1, 4])
                               for k in range(inputs)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
