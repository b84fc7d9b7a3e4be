"""The help-text catalog spells the same names as the registries it mirrors."""
from npuready.commands import catalog


def test_rule_ids_are_the_registry_in_order():
    from npuready.lint.registry import RULES

    assert catalog.RULE_IDS == tuple(RULES)


def test_observer_names_are_the_registry_sorted():
    from npuready.quant.observers import OBSERVERS

    assert catalog.OBSERVER_NAMES == tuple(sorted(OBSERVERS))


def test_intake_defaults_are_the_ones_apply_uses():
    from npuready.intake import apply

    assert (catalog.NAIVE_IMAGES, catalog.RECOVERY_STEPS) == (apply.NAIVE_IMAGES, apply.RECOVERY_STEPS)


def test_fail_on_choices_match_the_lint_configuration():
    from npuready.lint.config import FAIL_ON

    assert catalog.FAIL_ON == FAIL_ON
