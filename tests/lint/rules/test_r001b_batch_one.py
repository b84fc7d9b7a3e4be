from rule_models import findings, ids, one

from npuready.lint import examples as ex
from npuready.probes.patterns import tsm_shift


def test_batch_above_one_is_flagged_with_evidence():
    (f,) = findings(ex.conv_relu(shape=(4, 3, 16, 16)), "R001b")
    assert (f.evidence["value"], f.evidence["limit"], f.evidence["tensor"]) == (4, 1, "x")


def test_allow_batched_input_exempts():
    assert ids(ex.conv_relu(shape=(4, 3, 16, 16)), allow_batched_input=True) == []


def test_fixed_batch_never_triggers_r001a():
    assert ids(ex.conv_relu(shape=(4, 3, 16, 16))) == ["R001b"]


def test_symbolic_batch_is_r001a_not_r001b():
    assert "R001b" not in ids(ex.conv_relu(shape=("N", 3, 16, 16)))


def test_vectors_have_no_batch_axis():
    assert "R001b" not in ids(one("Relu", [16], [16]))


def test_tsm_probe_needs_the_exemption():
    m = tsm_shift()
    assert set(ids(m)) == {"R001b", "R004"}
    assert [f for f in ids(m, allow_batched_input=True) if f != "R004"] == []
