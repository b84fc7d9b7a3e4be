"""Slice and Split (a copy of each part, own output scales) and nearest Resize: bit-exact against LiteRT."""
import numpy as np
import pytest
from onnx import helper as h
from onnx import numpy_helper as nh

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402

from npuready.engine.ops.resize import nearest_index  # noqa: E402
from npuready.engine.ops.slice import ranges  # noqa: E402
from npuready.engine.ops.split import sizes  # noqa: E402


def _i64(name, v):
    return nh.from_array(np.asarray(v, np.int64), name)


def test_slice_ranges_follow_onnx_clamping():
    assert ranges((1, 8, 5), [-3, 0], [2 ** 63 - 1, -1], [1, 2], [1, 2], "s") == [[0, 1, 1], [5, 8, 1], [0, 4, 2]]


def test_split_sizes_from_input_attribute_or_equal_parts():
    from onnx import TensorProto as T

    from npuready.graph import load

    g = h.make_graph([h.make_node("Split", ["x"], ["a", "b", "c"], axis=1)], "s",
                     [h.make_tensor_value_info("x", T.FLOAT, [1, 8])], [h.make_tensor_value_info("a", T.FLOAT, [1, 3])])
    node = load(h.make_model(g, opset_imports=[h.make_opsetid("", 17)])).nodes[0]
    assert sizes(node, 8, None) == [3, 3, 2] and sizes(node, 6, np.array([1, 2, 3])) == [1, 2, 3]


def test_nearest_index_is_floor_of_the_float32_ratio():
    assert nearest_index(3, 6).tolist() == [0, 0, 1, 1, 2, 2]
    assert nearest_index(5, 3).tolist() == [0, 1, 3]


@pytest.mark.parametrize("seed", [0, 1])
def test_slice_matches_litert(seed):
    inits = [_i64("st", [1, -4]), _i64("en", [3, 100]), _i64("ax", [1, 3]), _i64("sp", [1, 2])]
    node = h.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"])
    model, x = qdq_model([node], ["y"], [1, 4, 6, 8], seed=seed, inits=inits)
    assert_bitexact(model, x, ["Slice"])


def test_split_with_its_own_output_scales_matches_litert():
    node = h.make_node("Split", ["x", "parts"], ["a", "b"], axis=1)
    cat = h.make_node("Concat", ["a", "b"], ["y"], axis=1)
    model, x = qdq_model([node, cat], ["a", "b", "y"], [1, 6, 5, 5], seed=2, inits=[_i64("parts", [2, 4])])
    assert_bitexact(model, x, ["Slice", "Slice", "Concat"])


@pytest.mark.parametrize("shape,scales", [([1, 3, 5, 4], [1, 1, 2, 2]), ([1, 2, 3, 3], [1, 1, 3, 2])])
def test_nearest_resize_matches_litert(shape, scales):
    inits = [nh.from_array(np.array(scales, np.float32), "scales")]
    node = h.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest",
                       coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    model, x = qdq_model([node], ["y"], shape, seed=4, inits=inits)
    assert_bitexact(model, x, ["Resize"])


@pytest.mark.parametrize("pads,value", [([0, 0, 1, 2, 0, 1, 0, 0], 0.0), ([0, 1, 0, 1, 0, 0, 2, 1], 0.37)],
                         ids=["zero-spatial", "value-channels"])
def test_constant_pad_matches_litert(pads, value):
    inits = [_i64("pads", pads), nh.from_array(np.array(value, np.float32), "v")]
    model, x = qdq_model([h.make_node("Pad", ["x", "pads", "v"], ["y"])], ["y"], [1, 3, 4, 5], seed=6, inits=inits)
    assert_bitexact(model, x, ["Pad"])


@pytest.mark.parametrize("ctm", ["half_pixel", "asymmetric"])
@pytest.mark.parametrize("shape,scales", [([1, 3, 5, 4], [1, 1, 2, 2]), ([1, 2, 6, 6], [1, 1, 0.5, 1.5])])
def test_bilinear_resize_matches_litert(ctm, shape, scales):
    inits = [nh.from_array(np.array(scales, np.float32), "scales")]
    node = h.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear", coordinate_transformation_mode=ctm)
    model, x = qdq_model([node], ["y"], shape, seed=5, inits=inits)
    assert_bitexact(model, x, ["ResizeBilinear"])


def test_split_along_a_leading_axis_of_size_three_runs_image_by_image():
    """ViT's qkv: Reshape to (3, 1, …) then Split on axis 0 — the first part [0:1] is not the batch."""
    from npuready.engine import cpp_engine, numpy_engine
    from npuready.engine.export import export_integer_graph

    inits = [_i64("s3", [3, 1, 2, 5]), _i64("parts", [1, 1, 1])]
    nodes = [h.make_node("Reshape", ["x", "s3"], ["r"]),
             h.make_node("Split", ["r", "parts"], ["q", "k", "v"], axis=0),
             h.make_node("Add", ["q", "v"], ["y"])]
    model, x = qdq_model(nodes, ["r", "q", "k", "v", "y"], [1, 6, 5], seed=16, inits=inits, outputs=["y"])
    graph = export_integer_graph(model)
    assert not graph.batchable
    assert [op.params.get("keep_batch") for op in graph.ops if op.kind == "Slice"] == [False] * 3
    r_name, q_name = graph.ops[1].outputs[0], graph.ops[2].outputs[0]
    for engine in (numpy_engine, cpp_engine):
        out = engine.run(graph, x)
        assert out[q_name].shape == (len(x), 1, 2, 5)  # one part per image, not three
        whole = graph.dequantize(r_name, out[r_name]).reshape(len(x), 3, 1, 2, 5)[:, 0]
        q = graph.dequantize(q_name, out[q_name])
        assert np.abs(q - whole).max() <= graph.tensors[q_name].scale  # the first part, requantised
