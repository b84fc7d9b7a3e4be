import dataclasses

from rule_models import findings, ids, one

from npuready.lint.rules.r005_activation_allowlist import ACTIVATION_OPS
from npuready.targets import load_target

X = [1, 64, 4, 4]


def test_sigmoid_passes_on_a_target_that_measured_it():
    target = load_target("edge-10")
    assert target.activation_mode("Sigmoid") in ("fused", "lut")
    assert ids(one("Sigmoid", X, X), target=target) == []


def test_activation_absent_from_the_allowlist_is_flagged():
    (f,) = findings(one("Softsign", X, X), "R005")
    assert (f.op_type, f.evidence["mode"]) == ("Softsign", "absent")


def test_host_mode_is_a_finding():
    base = load_target("edge-10")
    target = dataclasses.replace(base, activations={**base.activations, "Sigmoid": "host"})
    (f,) = findings(one("Sigmoid", X, X), "R005", target=target)
    assert f.evidence["mode"] == "host"


def test_non_activation_ops_are_not_checked():
    assert "Add" not in ACTIVATION_OPS
    assert findings(one("Neg", X, X), "R005") == ()
