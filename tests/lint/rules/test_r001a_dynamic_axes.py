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


def _reach_by_visible_tables(graph):
    """The count as it was defined: every graph's visible table (own values and its parents') read whole."""
    from collections import Counter

    from npuready.lint.rules.r001a_dynamic_axes import _dim_names

    count, inputs, todo = Counter(), {t.name for t in graph.inputs}, [graph]
    while todo:
        g = todo.pop()
        count.update(n for info in g.tensors.values() if info.name not in inputs for n in _dim_names(info))
        todo.extend(s for node in g.nodes for s in node.subgraphs)
    return count


def test_reach_over_subgraphs_counts_what_the_visible_tables_hold():
    """Nested If bodies that use, shadow and add dims: the per-table count equals reading each visible table
    whole (the count the rule reports, unchanged)."""
    from onnx import TensorProto as T
    from onnx import helper as h

    from npuready.graph import Graph
    from npuready.lint.rules.r001a_dynamic_axes import _reach

    def vi(name, shape):
        return h.make_tensor_value_info(name, T.FLOAT, shape)

    inner = [h.make_graph([h.make_node("Relu", ["a"], ["d"], name="inner_relu")], f"in{k}", [],
                          [vi("d", ["N", "W"])], value_info=[vi("a", ["N", "K"])]) for k in range(2)]
    then = h.make_graph([h.make_node("Neg", ["a"], ["b"], name="neg"),
                         h.make_node("If", ["c"], ["e"], name="if_in", then_branch=inner[0], else_branch=inner[1])],
                        "then", [], [vi("e", ["N", "W"])], value_info=[vi("a", ["N", 3]), vi("b", ["N", "H"])])
    other = h.make_graph([h.make_node("Relu", ["a"], ["f"], name="relu2")], "else", [], [vi("f", ["N", "W"])])
    model = h.make_model(h.make_graph(
        [h.make_node("Relu", ["x"], ["a"], name="relu"),
         h.make_node("If", ["c"], ["y"], name="if_out", then_branch=then, else_branch=other)],
        "g", [vi("x", ["N", 3]), h.make_tensor_value_info("c", T.BOOL, [])], [vi("y", ["N", "W"])],
        value_info=[vi("a", ["N", 3])]), opset_imports=[h.make_opsetid("", 17)])
    g = Graph.from_model(model)
    assert _reach(g) == _reach_by_visible_tables(g) and _reach(g)["N"] > 0 and _reach(g)["K"] == 2
    small = Graph.from_model(_many_ifs(300))
    assert _reach(small) == _reach_by_visible_tables(small)


def _many_ifs(n):
    from onnx import TensorProto as T
    from onnx import helper as h

    nodes, outs = [], []
    for i in range(n):
        branches = [h.make_graph([h.make_node(op, ["x"], [f"{op}{i}"], name=f"{op}{i}")], f"{op}g{i}", [],
                                 [h.make_tensor_value_info(f"{op}{i}", T.FLOAT, ["N", 4])]) for op in ("Relu", "Neg")]
        nodes.append(h.make_node("If", ["c"], [f"y{i}"], then_branch=branches[0], else_branch=branches[1],
                                 name=f"if{i}"))
        outs.append(h.make_tensor_value_info(f"y{i}", T.FLOAT, ["N", 4]))
    return h.make_model(h.make_graph(nodes, "ifs", [h.make_tensor_value_info("x", T.FLOAT, ["N", 4]),
                                                    h.make_tensor_value_info("c", T.BOOL, [])], outs),
                        opset_imports=[h.make_opsetid("", 17)])


def test_reach_reads_each_table_once_however_many_subgraphs(monkeypatch):
    """2,000 If nodes: each value's dims are read once (the quadratic count read the main graph's 2,000 outputs
    once per subgraph: 8 million reads)."""
    from npuready.graph import Graph
    from npuready.lint.rules import r001a_dynamic_axes as rule

    g = Graph.from_model(_many_ifs(2000))
    values = len(g.own_tensors) + sum(len(s.own_tensors) for n in g.nodes for s in n.subgraphs)
    calls = []
    real = rule._dim_names
    monkeypatch.setattr(rule, "_dim_names", lambda info: calls.append(1) or real(info))
    reach = rule._reach(g)
    assert len(calls) <= 2 * values and reach["N"] > 0
