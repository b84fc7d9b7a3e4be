"""select/ignore by rule id or prefix: the longer prefix wins, ignore wins a tie, unknown selectors are named."""
from __future__ import annotations

import pytest

from npuready.lint.registry import RULES
from npuready.lint.selection import parse_list, selected_rules, unknown_selectors

IDS = list(RULES)


@pytest.mark.parametrize("select, ignore, expected", [
    (None, (), IDS),
    (None, ("R00",), []),
    (None, ("R001",), [r for r in IDS if not r.startswith("R001")]),
    (("R001",), (), ["R001a", "R001b"]),
    (("R001a",), ("R001",), ["R001a"]),            # more specific select wins
    (("R001",), ("R001b",), ["R001a"]),             # more specific ignore wins
    (("R004",), ("R004",), []),                      # a tie: ignore wins
    (("R007", "R003"), (), ["R003", "R007"]),        # registry order, not the order given
])
def test_selected_rules(select, ignore, expected):
    assert selected_rules(IDS, select, ignore) == expected


def test_unknown_selectors_and_list_parsing():
    assert unknown_selectors(["R00", "R001b", "R9", "", "r003"], IDS) == ["R9", "", "r003"]
    assert parse_list(" R001, R004 ,,") == ["R001", "R004"]
