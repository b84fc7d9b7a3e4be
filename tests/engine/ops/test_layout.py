"""ReduceMean over any axes, Transpose/Reshape of other ranks, Relu6 (Clip 0..6) on its own, GELU: against LiteRT."""
import numpy as np
import pytest
from onnx import helper as h
from onnx import numpy_helper as nh

pytest.importorskip("ai_edge_litert")

from oplevel import assert_bitexact, qdq_model  # noqa: E402


@pytest.mark.parametrize("axes,keepdims", [([1], 1), ([2, 3], 0), ([1, 3], 1)])
def test_reduce_mean_over_any_feature_axes_matches_litert(axes, keepdims):
    node = h.make_node("ReduceMean", ["x"], ["y"], axes=axes, keepdims=keepdims)
    model, x = qdq_model([node], ["y"], [1, 4, 5, 6], seed=9, opset=13)
    assert_bitexact(model, x, ["Mean"])


@pytest.mark.parametrize("shape,perm", [([1, 6, 5], [0, 2, 1]), ([1, 2, 3, 4, 5], [0, 3, 1, 4, 2])])
def test_transpose_then_requantising_reshape_matches_litert(shape, perm):
    inits = [nh.from_array(np.array([1, -1], np.int64), "flat")]
    nodes = [h.make_node("Transpose", ["x"], ["t"], perm=perm), h.make_node("Reshape", ["t", "flat"], ["y"])]
    model, x = qdq_model(nodes, ["t", "y"], shape, seed=10, inits=inits)
    assert_bitexact(model, x, ["Transpose", "Reshape"])


def test_standalone_relu6_matches_litert():
    inits = [nh.from_array(np.array(0, np.float32), "lo"), nh.from_array(np.array(6, np.float32), "hi")]
    model, x = qdq_model([h.make_node("Clip", ["x", "lo", "hi"], ["y"])], ["y"], [1, 3, 4, 4], seed=11, inits=inits)
    assert_bitexact(model, x, ["Rescale"])


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_table_matches_litert(approximate):
    node = h.make_node("Gelu", ["x"], ["y"], approximate=approximate)
    model, x = qdq_model([node], ["y"], [1, 3, 4, 4], seed=12, opset=20)
    assert_bitexact(model, x, ["Lut"])


def test_new_op_parameters_survive_save_and_load(tmp_path):
    from npuready.engine import intgraph, numpy_engine
    from npuready.engine.export import export_integer_graph

    inits = [nh.from_array(np.array([1, 1, 2, 2], np.float32), "sc"),
             nh.from_array(np.array([0, 0, 1, 0, 0, 0, 0, 1], np.int64), "pads")]
    nodes = [h.make_node("Resize", ["x", "", "sc"], ["r"], mode="linear"), h.make_node("Pad", ["r", "pads"], ["p"]),
             h.make_node("PRelu", ["p", "a"], ["y"])]
    model, x = qdq_model(nodes, ["r", "p", "y"], [1, 2, 3, 3], seed=14, inits=inits,
                         qconsts={"a": np.array([[[0.25]], [[-0.5]]])})
    graph = export_integer_graph(model)
    again = intgraph.load(intgraph.save(graph, tmp_path / "g.npz"))
    assert [op.kind for op in again.ops] == ["Quantize", "ResizeBilinear", "Pad", "PRelu"]
    a, b = numpy_engine.run(graph, x), numpy_engine.run(again, x)
    assert all(np.array_equal(a[k], b[k]) for k in a) and set(a) == set(b)


@pytest.mark.parametrize("lo,hi", [(-0.5, 1.0), (0.25, None)])
def test_standalone_clip_with_other_bounds_matches_litert(lo, hi):
    inits = [nh.from_array(np.array(lo, np.float32), "lo")]
    ins = ["x", "lo"]
    if hi is not None:
        inits.append(nh.from_array(np.array(hi, np.float32), "hi"))
        ins.append("hi")
    model, x = qdq_model([h.make_node("Clip", ins, ["y"])], ["y"], [1, 3, 4, 4], seed=15, inits=inits)
    assert_bitexact(model, x, ["Rescale"])


def test_identity_quantised_again_is_a_requantisation_and_matches_litert():
    """Paddle2ONNX writes Identity mid-graph; onnxruntime quantises its output again (here at another scale)."""
    rng = np.random.default_rng(12)
    nodes = [h.make_node("Conv", ["x", "w"], ["c"], group=3), h.make_node("Identity", ["c"], ["i"]),
             h.make_node("Relu", ["i"], ["y"])]
    model, x = qdq_model(nodes, ["c", "i", "y"], [1, 3, 4, 4], seed=12,
                         qconsts={"w": rng.standard_normal((3, 1, 1, 1))})
    graph = assert_bitexact(model, x, ["Conv", "Rescale", "Rescale"])
    assert graph.ops[2].params["rescale"] is not None


def test_identity_between_a_dequantizelinear_and_its_reader_names_the_same_tensor():
    nodes = [h.make_node("Identity", ["x"], ["i"]), h.make_node("Relu", ["i"], ["y"])]
    model, x = qdq_model(nodes, ["y"], [1, 3, 4, 4], seed=13)
    assert_bitexact(model, x, ["Rescale"])


def test_reshape_merging_the_batch_axis_runs_image_by_image_and_matches_litert():
    # The version converter writes a rank-4 opset-11 Softmax as Flatten → Softmax → Reshape: the Flatten
    # merges the batch into axis 0 ([1, 6, 4] → [6, 4]), so the graph runs one image at a time and the
    # Reshape back must take its static shape, not "batch + rest" ([6] + [6, 4]).
    inits = [nh.from_array(np.array([1, 6, 4], np.int64), "back")]
    nodes = [h.make_node("Flatten", ["x"], ["f"], axis=2), h.make_node("Softmax", ["f"], ["s"], axis=-1),
             h.make_node("Reshape", ["s", "back"], ["y"])]
    model, x = qdq_model(nodes, ["f", "s", "y"], [1, 6, 4], seed=15, inits=inits, opset=13, images=3)
    graph = assert_bitexact(model, x, ["Reshape", "Softmax", "Reshape"])
    assert graph.batchable is False
