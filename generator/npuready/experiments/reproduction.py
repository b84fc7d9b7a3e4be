"""One reproduction record out of several runs of ``benchmarks/reproduce_all.py``.

A run writes a document with its own header (commit, cluster start, total wall time, load before and after) and
one row per experiment. Re-running a few experiments later (one was cut short, one was fixed) must not throw
the other rows away, so :func:`merge` folds a later run into an earlier record: the later run's rows replace the
earlier rows of the same experiments, every run keeps its header in ``runs`` (with the experiments whose rows
still come from it), and each row already names the commit it ran at (``reproduced_commit``).
"""
from __future__ import annotations

from typing import Any

HEADER = ("commit", "cluster_start_s", "total_wall_s", "load_1_5_15_before", "load_1_5_15_after")


def runs(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The run headers of a record; a single run's document is its own only run."""
    if "runs" in doc:
        return doc["runs"]
    return [{**{key: doc.get(key) for key in HEADER}, "experiments": [r["experiment"] for r in doc["experiments"]]}]


def merge(base: dict[str, Any], later: dict[str, Any], only: list[str] | None = None) -> dict[str, Any]:
    """``base`` with ``later``'s rows in place of its rows of the same experiments (``later``'s new ones last);
    with ``only``, just those experiments' rows are taken from ``later`` (its header keeps its whole wall time)."""
    if base.get("workers") != later.get("workers"):
        raise ValueError(f"cannot merge runs on {base.get('workers')} and {later.get('workers')} workers")
    if only is not None:
        unknown = sorted(set(only) - {r["experiment"] for r in later["experiments"]})
        if unknown:
            raise ValueError(f"the later run has no row for {', '.join(unknown)}")
        later = {**later, "experiments": [r for r in later["experiments"] if r["experiment"] in only],
                 "runs": _named(runs(later), lambda e: e in only)}
    taken = {r["experiment"]: r for r in later["experiments"]}
    rows = [taken.pop(r["experiment"], r) for r in base["experiments"]] + list(taken.values())
    replaced = {r["experiment"] for r in later["experiments"]}
    headers = [h for h in _named(runs(base), lambda e: e not in replaced) if h["experiments"]] + runs(later)
    # whether every declared experiment is in it is the renderer's question (it knows the declared ones)
    doc = {key: value for key, value in base.items() if key not in (*HEADER, "runs", "experiments", "complete")}
    return {**doc, "runs": headers, "experiments": rows}


def _named(headers: list[dict[str, Any]], keep) -> list[dict[str, Any]]:
    """The run headers, each naming only the experiments ``keep`` accepts."""
    return [{**h, "experiments": [e for e in h["experiments"] if keep(e)]} for h in headers]
