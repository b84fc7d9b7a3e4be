"""Every rule's bad example yields exactly that rule; every good example yields no findings (target edge-10)."""
from __future__ import annotations

import pytest

from npuready.lint import Severity, lint
from npuready.lint.registry import RULES

TARGET = "edge-10"


def test_registry_is_in_id_order_and_complete():
    assert list(RULES) == ["R001a", "R001b", "R002", "R003", "R004", "R005", "R006", "R007", "R008", "R009"]
    assert list(RULES) == sorted(RULES)


def test_only_r004_and_r009_are_warnings():
    assert {rid for rid, r in RULES.items() if r.severity is Severity.WARN} == {"R004", "R009"}


@pytest.mark.parametrize("rule_id", list(RULES))
def test_rule_carries_its_documentation(rule_id):
    rule = RULES[rule_id]
    assert rule.id == rule_id
    assert rule.title and rule.why and rule.fix
    assert rule.check.__module__ == rule.bad_example.__module__


@pytest.mark.parametrize("profile", ["target", "portable"])
@pytest.mark.parametrize("rule_id", list(RULES))
def test_bad_example_yields_exactly_this_rule(rule_id, profile):
    """The bad examples are what no target runs (or an efficiency WARN), so both profiles agree on them."""
    report = lint(RULES[rule_id].bad_example(), target=TARGET, profile=profile)
    assert report.findings, f"{rule_id} bad example produced no finding"
    assert report.rule_ids() == {rule_id}
    assert all(f.severity is RULES[rule_id].severity for f in report.findings)
    assert report.blocked is (RULES[rule_id].severity is Severity.ERROR)


@pytest.mark.parametrize("rule_id", list(RULES))
def test_good_example_has_no_findings(rule_id):
    report = lint(RULES[rule_id].good_example(), target=TARGET)
    assert report.findings == ()
    assert report.exit_code == 0


@pytest.mark.parametrize("rule_id", list(RULES))
def test_findings_carry_evidence(rule_id):
    for f in lint(RULES[rule_id].bad_example(), target=TARGET).findings:
        assert "value" in f.evidence and "limit" in f.evidence
        assert f.node and f.message
