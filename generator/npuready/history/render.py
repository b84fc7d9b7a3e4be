"""A two-commit diff of the stored results as text (a rich table per experiment) or JSON."""
from __future__ import annotations

import io
import json
from typing import Any

from npuready.history.compare import FigureChange, ResultDiff
from npuready.terminal import printable, width


def value_text(value: Any, kind: str) -> str:
    """A key figure as a reader sees it, in the site's format: accuracies as fractions (0.8808, as every site view
    shows them), thousands separators for counts."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return printable(value)
    if kind == "accuracy":
        return f"{value:.4g}"
    if isinstance(value, int) or (kind in ("cycles", "count") and float(value).is_integer()):
        return f"{int(value):,}"
    return f"{value:.6g}"


def delta_text(change: FigureChange) -> str:
    d = change.delta
    if d is None:
        return ""
    if change.kind == "accuracy":
        return f"{d:+.4g}"
    if isinstance(d, int):
        return f"{d:+,}"
    return f"{d:+.6g}"


def _head(diff: ResultDiff) -> list[str]:
    return [f"A {diff.a.short} {diff.a.date[:10]} {printable(diff.a.subject)}",
            f"B {diff.b.short} {diff.b.date[:10]} {printable(diff.b.subject)}"]


def render_text(diff: ResultDiff, everything: bool = False, columns: int | None = None) -> str:
    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    console = Console(file=out, width=width(columns), markup=False, highlight=False, emoji=False,
                      color_system=None, soft_wrap=False)
    for line in _head(diff):
        console.print(line)
    rows = list(diff.changes) if everything else diff.moved()
    by_exp: dict[str, list[FigureChange]] = {}
    for change in rows:
        by_exp.setdefault(change.experiment, []).append(change)
    for exp_id, changes in by_exp.items():
        table = Table(title=printable(exp_id), title_justify="left", show_edge=False, pad_edge=False)
        table.add_column("key figure", overflow="fold")
        table.add_column("A", justify="right")
        table.add_column("B", justify="right")
        table.add_column("B - A", justify="right")
        for c in changes:
            table.add_row(printable(c.label), value_text(c.a, c.kind), value_text(c.b, c.kind),
                          delta_text(c) or ("" if c.status == "same" else c.status))
        console.print()
        console.print(table)
    quiet = sorted(set(diff.results_changed) - {c.experiment for c in diff.moved()})
    console.print()
    if not diff.moved():
        console.print("no key figure changed between A and B")
    if quiet:
        console.print(f"result.json changed, key figures unchanged: {', '.join(quiet)}")
    if diff.only_a:
        console.print(f"stored at A only: {', '.join(diff.only_a)}")
    if diff.only_b:
        console.print(f"stored at B only: {', '.join(diff.only_b)}")
    for note in diff.skipped:
        console.print(f"skipped (unreadable, counted absent): {printable(note)}")
    return out.getvalue()


def render_json(diff: ResultDiff, everything: bool = False) -> str:
    return json.dumps(diff.to_json(everything), indent=2, sort_keys=True) + "\n"
