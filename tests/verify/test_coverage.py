"""verify.coverage names, before quantizing, the nodes the integer engine or the INT8 TFLite exporter cannot run."""
import numpy as np
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from npuready.verify.coverage import Gap, gaps
from npuready.graph import load

pytest.importorskip("ai_edge_litert")


def _model(nodes, inits=(), out_shape=(1, 4, 8, 8)):
    g = h.make_graph(nodes, "m", [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, list(out_shape))], initializer=list(inits))
    return load(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]))


MODE = ("Resize mode=cubic coordinate_transformation_mode=half_pixel nearest_mode=round_prefer_floor; supported: "
        "nearest (asymmetric, floor) or linear (asymmetric, half_pixel, pytorch_half_pixel)")


def test_missing_kernel_resize_mode_and_float_only_lowering_are_named():
    inits = [nh.from_array(np.array([1, 1, 2, 2], np.float32), "sc"),
             nh.from_array(np.ones(4, np.float32), "g")]
    nodes = [h.make_node("Resize", ["x", "", "sc"], ["r"], name="up", mode="cubic"),
             h.make_node("GlobalMaxPool", ["r"], ["p"], name="gmp"),
             h.make_node("LayerNormalization", ["p", "g"], ["y"], name="ln", axis=1)]
    assert gaps(_model(nodes, inits, (1, 4, 1, 1))) == [
        Gap("up", "Resize", MODE, MODE),
        Gap("gmp", "GlobalMaxPool", "op GlobalMaxPool has no integer kernel", None),
        Gap("ln", "LayerNormalization", None, "op LayerNormalization is lowered to float TFLite only")]


def test_shape_arithmetic_folds_first_so_a_chunk_is_covered():
    inits = [nh.from_array(np.array(1, np.int64), "one"), nh.from_array(np.array(2, np.int64), "two"),
             nh.from_array(np.array([0], np.int64), "zero"), nh.from_array(np.array([1], np.int64), "ax")]
    nodes = [h.make_node("Shape", ["x"], ["s"]), h.make_node("Gather", ["s", "one"], ["c"]),
             h.make_node("Div", ["c", "two"], ["half"]), h.make_node("Unsqueeze", ["half", "zero"], ["end"]),
             h.make_node("Slice", ["x", "zero", "end", "ax"], ["y"])]
    assert gaps(_model(nodes, inits, (1, 2, 8, 8))) == []
