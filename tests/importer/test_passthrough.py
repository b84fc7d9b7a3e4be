"""Identity and inference-mode Dropout removed; graph outputs keep their names (npuready.importer.passthrough)."""
from __future__ import annotations

import numpy as np
from onnx import helper
from importer_models import RNG, assert_same_outputs, const, model, ops, value

from npuready.importer import canonicalise

X = {"x": RNG.normal(size=(1, 4)).astype(np.float32)}


def test_identity_inside_the_graph_is_removed():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("Identity", ["r"], ["i"], name="id"),
             helper.make_node("Sigmoid", ["i"], ["y"], name="sig")]
    m = model(nodes, [value("x", [1, 4])], [value("y", [1, 4])])
    out, imported = canonicalise(m)
    assert ops(out) == [("relu", "Relu"), ("sig", "Sigmoid")]
    assert list(out.graph.node[1].input) == ["r"]
    assert [(r.kind, r.nodes, r.detail) for r in imported.rewrites] == [
        ("identity-removed", ("id",), "readers of 'i' read 'r'")]
    assert_same_outputs(m, out, X)


def test_identity_writing_a_graph_output_keeps_the_output_name():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("Identity", ["r"], ["y"], name="id")]
    m = model(nodes, [value("x", [1, 4])], [value("y", [1, 4])])
    out, _ = canonicalise(m)
    assert ops(out) == [("relu", "Relu")]
    assert list(out.graph.node[0].output) == ["y"] and out.graph.output[0].name == "y"
    assert_same_outputs(m, out, X)


def test_identity_from_a_graph_input_to_a_graph_output_stays():
    m = model([helper.make_node("Identity", ["x"], ["y"], name="id")], [value("x", [1, 4])], [value("y", [1, 4])])
    out, imported = canonicalise(m)
    assert ops(out) == [("id", "Identity")] and not imported


def test_dropout_is_removed_unless_its_mask_is_read():
    nodes = [helper.make_node("Dropout", ["x"], ["d"], name="drop", ratio=0.5),
             helper.make_node("Relu", ["d"], ["y"], name="relu")]
    m = model(nodes, [value("x", [1, 4])], [value("y", [1, 4])], opset=11)
    out, imported = canonicalise(m)
    assert ops(out) == [("relu", "Relu")]
    assert imported.counts() == {"opset-upgraded": 1, "dropout-removed": 1}
    assert_same_outputs(m, out, X)
    masked = model([helper.make_node("Dropout", ["x"], ["y", "mask"], name="drop")], [value("x", [1, 4])],
                   [value("y", [1, 4]), value("mask", [1, 4], 9)])
    assert ops(canonicalise(masked)[0]) == [("drop", "Dropout")]


def test_dropout_in_training_mode_stays():
    nodes = [helper.make_node("Dropout", ["x", "ratio", "train"], ["y"], name="drop")]
    m = model(nodes, [value("x", [1, 4])], [value("y", [1, 4])],
              [const("ratio", np.array(0.5, np.float32)), const("train", np.array(True))])
    assert ops(canonicalise(m)[0]) == [("drop", "Dropout")]
