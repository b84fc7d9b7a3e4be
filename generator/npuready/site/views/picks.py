"""Choosing which stored row a sentence talks about (selection only — never arithmetic on results)."""
from __future__ import annotations

from typing import Any, Callable


def groups(rows: list[dict[str, Any]], key: str) -> dict[str, list[int]]:
    """Row positions per value of ``key``, in first-seen order."""
    out: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        out.setdefault(str(row[key]), []).append(i)
    return out


def extreme(rows: list[dict[str, Any]], indices: list[int], key: str, largest: bool = False) -> int:
    """The position (among ``indices``) whose ``key`` is smallest (or largest)."""
    pick: Callable = max if largest else min
    return pick(indices, key=lambda i: rows[i][key])


def how_many(hits: int, cases: int) -> str:
    """A word for how many cases hold ('every', 'most', 'some', 'no'); the counts are not shown."""
    if hits == cases:
        return "every"
    return "most" if 2 * hits > cases else "some" if hits else "no"
