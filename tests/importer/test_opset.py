"""The default-domain opset raised to 13 with onnx's version converter (npuready.importer.opset)."""
from __future__ import annotations

import numpy as np
from onnx import helper
from importer_models import RNG, assert_same_outputs, model, value

from npuready.importer import canonicalise
from npuready.importer.opset import default_opset


def test_opset_11_is_upgraded_to_13_and_computes_the_same():
    nodes = [helper.make_node("Unsqueeze", ["x"], ["u"], name="unsq", axes=[0]),
             helper.make_node("ReduceSum", ["u"], ["y"], name="sum", axes=[2], keepdims=0)]
    m = model(nodes, [value("x", [3, 4])], [value("y", [1, 3])], opset=11)
    out, imported = canonicalise(m)
    assert (default_opset(out), imported.opset_from, imported.opset_to) == (13, 11, 13)
    assert [r.kind for r in imported.rewrites] == ["opset-upgraded"]
    assert [n.name for n in out.graph.node if n.op_type != "Constant"] == ["unsq", "sum"]
    assert imported.rewrites[0].nodes == tuple(n.name for n in out.graph.node if n.op_type == "Constant")
    assert all(imported.rewrites[0].nodes)
    assert_same_outputs(m, out, {"x": RNG.normal(size=(3, 4)).astype(np.float32)})


def test_opset_13_and_newer_is_kept():
    m = model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [value("x", [3])], [value("y", [3])], opset=17)
    out, imported = canonicalise(m)
    assert out is m and not imported and imported.summary() == "imported: unchanged"
