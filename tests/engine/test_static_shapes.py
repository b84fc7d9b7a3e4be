"""Shape arithmetic of a static graph folds into constants; quantised weights stay behind their DequantizeLinear."""
import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from npuready.engine.static_shapes import fold_static_shapes


def _chunk_model() -> onnx.ModelProto:
    """x → Q/DQ → Slice(x, 0, Shape(x)[1] / 2, axis 1) (torch's chunk) and a Q/DQ'd grid computed from shapes."""
    inits = [nh.from_array(np.array(0.05, np.float32), "s"), nh.from_array(np.array(3, np.int8), "z"),
             nh.from_array(np.array(1, np.int64), "one"), nh.from_array(np.array(2, np.int64), "two"),
             nh.from_array(np.array([0], np.int64), "zero1"), nh.from_array(np.array([1], np.int64), "axis1"),
             nh.from_array(np.array([0], np.int64), "ax0")]
    nodes = [h.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"]),
             h.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"]),
             h.make_node("Shape", ["xd"], ["shp"]), h.make_node("Gather", ["shp", "one"], ["c"], axis=0),
             h.make_node("Div", ["c", "two"], ["half"]), h.make_node("Unsqueeze", ["half", "ax0"], ["end"]),
             h.make_node("Slice", ["xd", "zero1", "end", "axis1"], ["y0"]),
             h.make_node("Cast", ["half"], ["halff"], to=T.FLOAT),
             h.make_node("QuantizeLinear", ["halff", "s", "z"], ["gq"]),
             h.make_node("DequantizeLinear", ["gq", "s", "z"], ["gd"]),
             h.make_node("Add", ["y0", "gd"], ["y"])]
    g = h.make_graph(nodes, "chunk", [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 6, 6])],
                     [h.make_tensor_value_info("y", T.FLOAT, None)], initializer=inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def test_shape_arithmetic_folds_and_the_derived_constant_keeps_its_dequantize():
    folded, n = fold_static_shapes(_chunk_model())
    assert n == 6  # Shape, Gather, Div, Unsqueeze, Cast, QuantizeLinear of the grid value
    assert [x.op_type for x in folded.graph.node] == ["QuantizeLinear", "DequantizeLinear", "Slice",
                                                       "DequantizeLinear", "Add"]
    inits = {t.name: nh.to_array(t) for t in folded.graph.initializer}
    assert inits["end"].tolist() == [2] and inits["gq"].dtype == np.int8 and int(inits["gq"]) == 43
    shape = [d.dim_value for d in next(v for v in folded.graph.value_info if v.name == "y0").type.tensor_type.shape.dim]
    assert shape == [1, 2, 6, 6]


def test_a_graph_without_shape_arithmetic_is_returned_unchanged():
    m = _chunk_model()
    del m.graph.node[2:]
    m.graph.output[0].name = "xd"
    folded, n = fold_static_shapes(m)
    assert n == 0 and folded is m


def _grid_model() -> onnx.ModelProto:
    """YOLOv8's anchor offsets: Range → Q/DQ → Add(·, quantised constant 0.5) → Q/DQ → Expand → Q/DQ → Add to
    the activation; and a quantised weight read by a run-time Transpose (which must stay behind its DQ)."""
    q = lambda a, s: [h.make_node("QuantizeLinear", [a, s, "z"], [f"{a}q"]),  # noqa: E731
                      h.make_node("DequantizeLinear", [f"{a}q", s, "z"], [f"{a}d"])]
    inits = [nh.from_array(np.array(0.05, np.float32), "s"), nh.from_array(np.array(0, np.int8), "z"),
             nh.from_array(np.array(0.0, np.float32), "start"), nh.from_array(np.array(4.0, np.float32), "limit"),
             nh.from_array(np.array(1.0, np.float32), "delta"), nh.from_array(np.array(127, np.int8), "half_q"),
             nh.from_array(np.array(0.5 / 127, np.float32), "half_s"), nh.from_array(np.array([3, 4], np.int64), "to"),
             nh.from_array(np.array(0.1, np.float32), "w_s"), nh.from_array(np.ones((4, 3), np.int8), "w_q")]
    nodes = [*q("x", "s"), h.make_node("Range", ["start", "limit", "delta"], ["r"]), *q("r", "s"),
             h.make_node("DequantizeLinear", ["half_q", "half_s", "z"], ["half"]),
             h.make_node("Add", ["rd", "half"], ["a"]), *q("a", "s"),
             h.make_node("Expand", ["ad", "to"], ["e"]), *q("e", "s"),
             h.make_node("Add", ["xd", "ed"], ["y"]),
             h.make_node("DequantizeLinear", ["w_q", "w_s", "z"], ["w"]),
             h.make_node("Transpose", ["w"], ["wt"], perm=[1, 0]), h.make_node("MatMul", ["y", "wt"], ["out"])]
    g = h.make_graph(nodes, "grid", [h.make_tensor_value_info("x", T.FLOAT, [3, 4])],
                     [h.make_tensor_value_info("out", T.FLOAT, None)], initializer=inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def test_a_grid_built_from_a_quantised_constant_folds_but_a_weight_stays_int8():
    folded, _ = fold_static_shapes(_grid_model())
    ops = [x.op_type for x in folded.graph.node]
    assert ops == ["QuantizeLinear", "DequantizeLinear", "DequantizeLinear", "Add", "DequantizeLinear", "Transpose",
                   "MatMul"]
    inits = {t.name: nh.to_array(t) for t in folded.graph.initializer}
    assert inits["eq"].tolist() == [[10, 30, 50, 70]] * 3  # (0.5, 1.5, 2.5, 3.5) / 0.05
    assert inits["w_q"].dtype == np.int8 and "wt" not in inits
