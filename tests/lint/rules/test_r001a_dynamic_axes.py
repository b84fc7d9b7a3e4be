from onnx import TensorProto, helper
from rule_models import findings, ids, one

from npuready.lint import examples as ex


def test_symbolic_batch_is_flagged_on_input_output_and_intermediate():
    fs = findings(ex.conv_relu(shape=("N", 3, 16, 16)), "R001a")
    assert [(f.node, f.evidence["tensor"], f.evidence["axes"]) for f in fs] == [
        ("<graph>", "x", [0]), ("<graph>", "y", [0]), ("conv", "c", [0])]


def test_unknown_dim_is_flagged():
    m = ex.conv_relu(shape=(1, 3, None, 16))
    assert "R001a" in ids(m)


def test_fixed_batch_of_t_frames_is_static():
    assert "R001a" not in ids(ex.conv_relu(shape=(8, 3, 16, 16)))


def test_zero_sized_dim_is_static():
    m = one("Relu", [1, 0, 4], [1, 0, 4])
    assert ids(m) == []


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

    fs = findings(sp.chunk_conv("batch"), "R001a")
    assert [(f.node, f.evidence["tensor"], f.evidence["axes"], f.evidence["value"]) for f in fs] == [
        ("<graph>", "image", [0], "[batch,8,5,5]"), ("<graph>", "out", [0], "[batch,6,5,5]"),
        ("slice", "first", [0], "[batch,4,5,5]")]


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
