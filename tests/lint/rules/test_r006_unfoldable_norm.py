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


def test_bn_after_a_graph_input_is_flagged():
    (f,) = findings(one("BatchNormalization", X, X, extra=_bn_params()), "R006")
    assert "graph input" in f.message


def test_bn_after_relu_is_flagged():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("BatchNormalization", ["r", "s", "bias", "mean", "var"], ["y"], name="bn")]
    m = ex.model(nodes, [ex.value("x", X)], [ex.value("y", X)], [ex.const(n, a) for n, a in _bn_params()])
    assert [f.node for f in findings(m, "R006")] == ["bn"]


def test_bn_after_conv_whose_output_is_shared_is_flagged():
    m = RULES["R006"].good_example()
    m.graph.node.append(helper.make_node("Relu", ["c"], ["side"], name="side"))
    m.graph.output.append(ex.value("side", [1, C, 16, 16]))
    assert [f.node for f in findings(m, "R006")] == ["bn"]


@pytest.mark.parametrize("op,extra,attrs,opset", [
    ("LayerNormalization", [("s", np.ones(4, np.float32))], {"axis": -1}, 17),
    ("GroupNormalization", [("s", np.ones(C, np.float32)), ("b", np.zeros(C, np.float32))], {"num_groups": 4}, 21),
    ("InstanceNormalization", [("s", np.ones(C, np.float32)), ("b", np.zeros(C, np.float32))], {}, 17),
    ("LpNormalization", [], {"axis": 1}, 17),
])
def test_norms_that_never_fold_are_flagged(op, extra, attrs, opset):
    assert ids(one(op, X, X, attrs, extra=extra, opset=opset)) == ["R006"]
