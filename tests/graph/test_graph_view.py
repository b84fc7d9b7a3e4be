"""The Graph view: topological order, tensor infos, constants, subgraph scopes."""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from npuready.graph import load
from npuready.lint import examples as ex


def test_nodes_are_topologically_ordered_even_when_the_file_is_not():
    nodes = [helper.make_node("Relu", ["a"], ["y"], name="second"), helper.make_node("Neg", ["x"], ["a"], name="first")]
    g = load(ex.model(nodes, [ex.value("x", [1, 4])], [ex.value("y", [1, 4])]))
    assert [n.name for n in g.nodes] == ["first", "second"]
    assert g.producers["a"].name == "first" and [n.name for n in g.consumers["a"]] == ["second"]


def test_tensor_infos_and_constants():
    g = load(ex.conv_relu(channels=8))
    assert g.info("c").shape == (1, 8, 16, 16) and g.info("c").dtype == "float32"
    assert g.info("w").shape == (8, 3, 3, 3)
    assert g.is_constant("w") and not g.is_constant("x")
    assert g.constant("b").tolist() == [0.0] * 8
    assert g.constant("c") is None


def test_unnamed_nodes_get_unique_names_and_constant_nodes_decode():
    nodes = [helper.make_node("Constant", [], ["k"], value=helper.make_tensor("v", TensorProto.INT64, [1], [3])),
             helper.make_node("Relu", ["x"], ["y"])]
    g = load(ex.model(nodes, [ex.value("x", [1, 4])], [ex.value("y", [1, 4])]))
    assert [n.name for n in g.nodes] == ["Constant_0", "Relu_1"]
    assert g.is_constant("k") and g.constant("k").tolist() == [3]


def test_walk_reaches_subgraphs_with_scope_paths():
    then = helper.make_graph([helper.make_node("Neg", ["x"], ["t"], name="neg")], "then", [], [ex.value("t", [1, 4])])
    other = helper.make_graph([helper.make_node("Abs", ["x"], ["e"], name="abs")], "else", [], [ex.value("e", [1, 4])])
    node = helper.make_node("If", ["c"], ["y"], name="branch", then_branch=then, else_branch=other)
    g = load(ex.model([node], [ex.value("x", [1, 4]), ex.value("c", [], TensorProto.BOOL)], [ex.value("y", [1, 4])]))
    assert [(sub.scope, n.name) for sub, n in g.walk()] == [
        ("", "branch"), ("branch.else_branch", "abs"), ("branch.then_branch", "neg")]  # attribute order
    neg_graph = next(sub for sub, n in g.walk() if n.name == "neg")
    assert neg_graph.info("x").shape == (1, 4)  # outer-scope values are visible
    assert np.dtype(neg_graph.info("x").dtype) == np.float32


def test_a_nested_subgraph_scope_keeps_its_outer_path():
    inner_then = helper.make_graph([helper.make_node("Neg", ["x"], ["t"], name="neg")], "t2", [],
                                   [ex.value("t", [1, 4])])
    inner_else = helper.make_graph([helper.make_node("Abs", ["x"], ["e"], name="abs")], "e2", [],
                                   [ex.value("e", [1, 4])])
    inner = helper.make_node("If", ["c"], ["z"], name="if2", then_branch=inner_then, else_branch=inner_else)
    outer_else = helper.make_graph([inner], "e1", [], [ex.value("z", [1, 4])])
    outer_then = helper.make_graph([helper.make_node("Relu", ["x"], ["r"], name="relu")], "t1", [],
                                   [ex.value("r", [1, 4])])
    outer = helper.make_node("If", ["c"], ["y"], name="if1", then_branch=outer_then, else_branch=outer_else)
    g = load(ex.model([outer], [ex.value("x", [1, 4]), ex.value("c", [], TensorProto.BOOL)], [ex.value("y", [1, 4])]))
    scopes = {n.name: sub.scope for sub, n in g.walk()}
    assert scopes["if2"] == "if1.else_branch"
    assert scopes["abs"] == "if1.else_branch/if2.else_branch" and scopes["neg"] == "if1.else_branch/if2.then_branch"



def test_negative_inferred_dim_is_unknown():
    """onnx shape inference can emit -1 (seen in test_affine_grid_3d_expanded's If branch): the view says unknown."""
    from npuready.graph import Graph

    m = ex.conv_relu()
    m.graph.value_info.append(ex.value("c", [1, -1, 16, 16]))
    assert Graph.from_model(m).info("c").shape == (1, None, 16, 16)


def test_subgraph_tensor_tables_share_the_parents_instead_of_copying_them():
    """20,000 If nodes used to copy the main graph's table each (memory quadratic in subgraphs)."""
    from collections import ChainMap

    import onnx as _onnx
    from onnx import TensorProto as _T
    from onnx import helper as _h

    from npuready.graph.view import Graph as _Graph

    x = _h.make_tensor_value_info("x", _T.FLOAT, [1, 4])
    c = _h.make_tensor_value_info("c", _T.BOOL, [])
    nodes, outs = [], []
    for i in range(3):
        branch = [_h.make_graph([_h.make_node(op, ["x"], [f"{op}{i}"], name=f"{op}{i}")], f"{op}g{i}", [],
                                [_h.make_tensor_value_info(f"{op}{i}", _T.FLOAT, [1, 4])]) for op in ("Relu", "Neg")]
        nodes.append(_h.make_node("If", ["c"], [f"y{i}"], then_branch=branch[0], else_branch=branch[1], name=f"if{i}"))
        outs.append(_h.make_tensor_value_info(f"y{i}", _T.FLOAT, [1, 4]))
    model = _h.make_model(_h.make_graph(nodes, "ifs", [x, c], outs), opset_imports=[_h.make_opsetid("", 17)])
    g = _Graph.from_model(model)
    subs = [s for n in g.nodes for s in n.subgraphs]
    assert len(subs) == 6
    for sub in subs:
        assert isinstance(sub.tensors, ChainMap) and sub.tensors.maps[1] is g.tensors  # shared, not copied
        assert sub.info("x").shape == (1, 4) and "x" not in sub.own_tensors
    relu = next(s for s in subs if [n.name for n in s.nodes] == ["Relu0"])
    assert relu.info("Relu0").shape == (1, 4) and "Relu0" not in g.tensors
    _onnx.checker.check_model(model)
