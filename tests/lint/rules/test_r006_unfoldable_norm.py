import numpy as np
import pytest
from onnx import helper
from rule_models import findings, ids, one

from npuready.lint import examples as ex
from npuready.lint.registry import RULES

C = 64
X = [1, C, 4, 4]


def _bn_params():
    return [("s", np.ones(C, np.float32)), ("bias", np.zeros(C, np.float32)),
            ("mean", np.zeros(C, np.float32)), ("var", np.ones(C, np.float32))]


def test_conv_bn_relu_passes():
    assert ids(RULES["R006"].good_example()) == []


# The loader's importer lowers a BatchNormalization that does not fold to Mul+Add (npuready.importer.batchnorm):
# R006 sees such a node only in a graph loaded as written (canonical=False), or when its statistics are computed.
def _as_written(m):
    from npuready.graph import load

    return load(m, canonical=False)


def test_bn_after_a_graph_input_is_flagged():
    (f,) = findings(_as_written(one("BatchNormalization", X, X, extra=_bn_params())), "R006")
    assert "graph input" in f.message


def _bn_after_relu():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("BatchNormalization", ["r", "s", "bias", "mean", "var"], ["y"], name="bn")]
    return ex.model(nodes, [ex.value("x", X)], [ex.value("y", X)], [ex.const(n, a) for n, a in _bn_params()])


def test_bn_after_relu_is_flagged():
    assert [f.node for f in findings(_as_written(_bn_after_relu()), "R006")] == ["bn"]


def test_bn_after_relu_is_lowered_by_the_importer_and_not_flagged():
    from npuready.graph import load

    g = load(_bn_after_relu())
    assert [(n.name, n.op_type) for n in g.nodes] == [("relu", "Relu"), ("bn/mul", "Mul"), ("bn/add", "Add")]
    assert findings(g, "R006") == ()


def test_bn_after_conv_whose_output_is_shared_is_flagged():
    m = RULES["R006"].good_example()
    m.graph.node.append(helper.make_node("Relu", ["c"], ["side"], name="side"))
    m.graph.output.append(ex.value("side", [1, C, 16, 16]))
    assert [f.node for f in findings(_as_written(m), "R006")] == ["bn"]


@pytest.mark.parametrize("op,extra,attrs,opset", [
    ("LayerNormalization", [("s", np.ones(4, np.float32))], {"axis": -1}, 17),
    ("GroupNormalization", [("s", np.ones(C, np.float32)), ("b", np.zeros(C, np.float32))], {"num_groups": 4}, 21),
    ("InstanceNormalization", [("s", np.ones(C, np.float32)), ("b", np.zeros(C, np.float32))], {}, 17),
    ("LpNormalization", [], {"axis": 1}, 17),
])
def test_norms_that_never_fold_are_flagged(op, extra, attrs, opset):
    assert ids(one(op, X, X, attrs, extra=extra, opset=opset)) == ["R006"]
