"""PRelu slopes as initializers whatever their form (npuready.importer.slopes)."""
from __future__ import annotations

import numpy as np
from onnx import helper, numpy_helper
from importer_models import RNG, assert_same_outputs, const, model, ops, value

from npuready.importer import canonicalise

X = {"x": RNG.normal(size=(1, 3, 2, 2)).astype(np.float32)}
SLOPE = np.array([0.1, 0.2, 0.3], np.float32)


def test_slope_from_unsqueeze_of_an_initializer_becomes_an_initializer():
    nodes = [helper.make_node("Unsqueeze", ["s", "axes"], ["su"], name="unsq"),
             helper.make_node("PRelu", ["x", "su"], ["y"], name="prelu")]
    m = model(nodes, [value("x", [1, 3, 2, 2])], [value("y", [1, 3, 2, 2])],
              [const("s", SLOPE), const("axes", np.array([1, 2], np.int64))])
    out, imported = canonicalise(m)
    assert ops(out) == [("prelu", "PRelu")]
    inits = {t.name: numpy_helper.to_array(t) for t in out.graph.initializer}
    assert out.graph.node[0].input[1] == "su_slope"
    np.testing.assert_array_equal(inits["su_slope"], SLOPE.reshape(3, 1, 1))
    assert [(r.kind, r.detail) for r in imported.rewrites] == [
        ("slope-initializer", "slope 'su' (Unsqueeze) → initializer 'su_slope' shape [3, 1, 1]")]
    assert_same_outputs(m, out, X)


def test_slope_from_a_constant_node_becomes_an_initializer():
    k = helper.make_node("Constant", [], ["k"], name="k", value=numpy_helper.from_array(SLOPE.reshape(3, 1, 1)))
    m = model([k, helper.make_node("PRelu", ["x", "k"], ["y"], name="prelu")], [value("x", [1, 3, 2, 2])],
              [value("y", [1, 3, 2, 2])])
    out, _ = canonicalise(m)
    assert ops(out) == [("prelu", "PRelu")]
    assert_same_outputs(m, out, X)


def test_slope_read_from_a_graph_input_stays():
    m = model([helper.make_node("PRelu", ["x", "s"], ["y"], name="prelu")],
              [value("x", [1, 3, 2, 2]), value("s", [3, 1, 1])], [value("y", [1, 3, 2, 2])])
    out, imported = canonicalise(m)
    assert ops(out) == [("prelu", "PRelu")] and not imported
