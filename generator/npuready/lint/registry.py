"""The explicit rule registry: id → Rule, in documentation order. Ids are never reused."""
from __future__ import annotations

from npuready.lint.rule import Rule
from npuready.lint.rules import r001a_dynamic_axes

RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        r001a_dynamic_axes.RULE,
    )
}
