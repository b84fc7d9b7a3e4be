import onnx
from onnx import helper
from rule_models import findings, ids, one

from npuready.lint import examples as ex

X = [1, 64, 4, 4]


def test_custom_domain_is_flagged():
    m = one("Frob", X, X, domain="com.acme", extra_opsets=[("com.acme", 1)])
    (f,) = findings(m, "R008")
    assert f.evidence["value"] == "com.acme::Frob"


def test_unknown_default_domain_op_is_a_finding_not_a_crash():
    (f,) = findings(one("FooBar", X, X), "R008")
    assert "no ONNX operator 'FooBar'" in f.message


def test_domain_missing_from_opset_import_is_a_finding():
    (f,) = findings(one("Frob", X, X, domain="com.acme"), "R008")
    assert "not declared" in f.message


def test_onnx_ml_domain_is_flagged():
    m = one("Normalizer", [1, 4], [1, 4], {"norm": "L2"}, domain="ai.onnx.ml", extra_opsets=[("ai.onnx.ml", 3)])
    assert ids(m) == ["R008"]


def test_local_functions_are_inlined_before_linting():
    fn = helper.make_function("local.fn", "Act", ["a"], ["b"], [helper.make_node("Relu", ["a"], ["b"])],
                              [helper.make_opsetid("", ex.OPSET)])
    m = ex.model([helper.make_node("Act", ["x"], ["y"], name="act", domain="local.fn")], [ex.value("x", X)],
                 [ex.value("y", X)], extra_opsets=[("local.fn", 1)])
    m.functions.append(fn)
    onnx.checker.check_model(m)
    assert ids(m) == []
