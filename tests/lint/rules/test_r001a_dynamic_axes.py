from onnx import TensorProto, helper
from rule_models import findings, ids, one

from npuready.lint import examples as ex


def test_symbolic_batch_is_one_finding_for_its_dimension_with_the_values_it_reaches():
    (f,) = findings(ex.conv_relu(shape=("N", 3, 16, 16)), "R001a")
    assert (f.node, f.evidence["tensor"], f.evidence["axes"], f.evidence["dim"], f.evidence["values"]) == (
        "<graph>", "x", [0], "N", 2)  # c and y carry N
    assert f.evidence["pin"] == "--batch 1 (or --input-shape x=1,3,16,16)"
    assert f.message.endswith("pin it with --batch 1 (or --input-shape x=1,3,16,16)")


def test_each_unnamed_dim_of_an_input_is_a_dimension_of_its_own():
    m = ex.conv_relu(shape=(1, 3, None, None))
    fs = findings(m, "R001a")
    assert [(f.evidence["axes"], f.evidence["dim"], f.evidence["pin"]) for f in fs] == [
        ([2], "x_dim2", "--input-shape x=1,3,<x_dim2>,<x_dim3>"),
        ([3], "x_dim3", "--input-shape x=1,3,<x_dim2>,<x_dim3>")]


def test_a_dim_name_shared_by_two_inputs_is_one_finding():
    from onnx import helper as h

    node = h.make_node("Add", ["a", "b"], ["y"], name="add")
    m = ex.model([node], [ex.value("a", ["N", 4]), ex.value("b", ["N", 4])], [ex.value("y", ["N", 4])], [])
    assert [f.evidence["tensor"] for f in findings(m, "R001a")] == ["a"]


def test_unknown_dim_is_flagged():
    m = ex.conv_relu(shape=(1, 3, None, 16))
    assert "R001a" in ids(m)


def test_fixed_batch_of_t_frames_is_static():
    assert "R001a" not in ids(ex.conv_relu(shape=(8, 3, 16, 16)))


def test_zero_dim_written_on_an_input_is_dynamic_elsewhere_static():
    m = one("Relu", [1, 0, 4], [1, 0, 4])
    (f,) = findings(m, "R001a")
    assert (f.evidence["axes"], f.evidence["dim"]) == ([1], "x_dim1")
    assert ids(m) == ["R001a"]


def test_dims_downstream_of_data_dependent_op_are_not_reported_twice():
    m = ex.conv_relu(name="nz")
    m.graph.node.append(helper.make_node("NonZero", ["y"], ["idx"], name="nonzero"))
    m.graph.node.append(helper.make_node("Transpose", ["idx"], ["t"], name="transpose"))
    del m.graph.output[:]
    m.graph.output.append(ex.value("t", [None, 4], TensorProto.INT64))
    assert ids(m) == ["R002", "R009"]  # R009: the transpose's shape is unknown, so the planner puts it on the CPU
    assert [f.node for f in findings(m, "R009")] == ["transpose"]


# Shapes are resolved before the rule runs: shape computations are not dynamism.
def test_resolved_shape_computations_are_not_reported():
    import shape_patterns as sp

    for build in (sp.chunk_conv, sp.channel_shuffle, sp.cls_token, sp.flatten_gemm):
        assert findings(build(), "R001a") == (), build.__name__


def test_dynamic_batch_reports_only_dims_that_follow_from_it():
    import shape_patterns as sp

    (f,) = findings(sp.chunk_conv("batch"), "R001a")
    assert (f.node, f.evidence["tensor"], f.evidence["axes"], f.evidence["value"]) == (
        "<graph>", "image", [0], "[batch,8,5,5]")


def test_pinned_batch_clears_every_finding():
    import shape_patterns as sp

    from npuready.graph import load
    from npuready.graph.pins import ShapePins
    from npuready.lint import lint

    report = lint(load(sp.cls_token("batch"), pins=ShapePins(batch=1)))
    assert report.by_rule("R001a") == ()
    assert report.shapes == {"shape_ops_folded": 7, "folded_nodes": 15, "unresolved_values": 0, "pinned": "--batch 1"}


def test_an_unresolved_dim_on_a_static_graph_is_not_dynamism():
    """The onnx wheel's sequence model: SequenceAt's output size is set by the sequence, not the inputs."""
    from npuready.experiments.onnx_corpus import corpus_root
    from npuready.graph import load
    from npuready.lint import lint

    report = lint(load(corpus_root() / "simple" / "test_sequence_model1" / "model.onnx"))
    assert report.by_rule("R001a") == ()
    assert report.shapes["unresolved_values"] == 1
