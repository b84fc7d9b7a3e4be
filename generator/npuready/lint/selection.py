"""Which rules run: ``select``/``ignore`` lists of rule ids or id prefixes ("R00", "R001"), as ruff does.

A rule runs when a ``select`` entry matches it and no ``ignore`` entry matches it at least as
specifically (the longer prefix wins; on a tie ``ignore`` wins). No ``select`` means every rule.
"""
from __future__ import annotations

from typing import Iterable, Sequence


def unknown_selectors(selectors: Iterable[str], rule_ids: Sequence[str]) -> list[str]:
    """Selectors that name no rule (a typo must not silently select or ignore nothing)."""
    return [s for s in selectors if not any(rid.startswith(s) for rid in rule_ids) or not s]


def _specificity(selectors: Iterable[str], rule_id: str) -> int:
    return max((len(s) for s in selectors if rule_id.startswith(s)), default=-1)


def selected_rules(rule_ids: Sequence[str], select: Sequence[str] | None, ignore: Sequence[str]) -> list[str]:
    """The rule ids that run, in registry order."""
    out = []
    for rid in rule_ids:
        chosen = 0 if select is None else _specificity(select, rid)
        if chosen >= 0 and chosen > _specificity(ignore, rid):
            out.append(rid)
    return out


def parse_list(text: str) -> list[str]:
    """A command-line list: "R001,R004" (spaces allowed) → ["R001", "R004"]."""
    return [part.strip() for part in text.split(",") if part.strip()]
