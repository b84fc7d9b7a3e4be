"""Generic rendering of any results section: a values table plus one table per list of records.

Works for every experiment, known or not: scalars found through nested objects become
``key → value`` rows; each list of objects becomes a table (pandas ``json_normalize`` flattens
nested objects into columns). Every cell goes through :class:`Figures`, so numbers stay drillable.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd
from markupsafe import Markup

from npuready.site import pointer
from npuready.site.fmt import is_number
from npuready.site.numbers import Figures
from npuready.site.titles import header

MAX_ROWS = 200
LIST_INLINE = 6  # a cell holding a longer list of names shows its first few, its length and its raw JSON
# Identifying columns first, in this order; the rest keep the stored (sorted) order.
LEAD_COLUMNS = ("model", "target", "name", "id", "node", "layer", "op", "op_type", "category", "kind")
_SEP = "\x1f"  # column separator json_normalize uses; cannot occur in JSON keys we render
_ABSENT = object()  # a record without this column


@dataclass(frozen=True)
class Table:
    title: str
    path: str  # JSON pointer of the list (or the section for the values table)
    columns: list[str]  # what the header cells show (titles with units for stored keys)
    rows: list[list[Markup]]
    truncated: bool = False
    keys: tuple[str, ...] = ()  # the stored key of each column ("" where a column is not one), when known


@dataclass(frozen=True)
class SectionView:
    name: str
    path: str
    evidence: str
    tables: list[Table] = field(default_factory=list)


def flatten(section: dict[str, Any], path: str) -> tuple[list[tuple[str, str, Any]], list[tuple[str, str, list]]]:
    """Scalars reachable through nested objects as (label, pointer, value), and lists of records as
    (label, pointer, rows). Lists of numbers stay scalars (one row); ``evidence`` is skipped."""
    scalars: list[tuple[str, str, Any]] = []
    lists: list[tuple[str, str, list]] = []

    def walk(node: dict[str, Any], here: str, keys: list[str]) -> None:
        for key, value in node.items():
            if key == "evidence" and not keys:
                continue
            at = pointer.join(here, key)
            label = ".".join([*keys, key])
            if isinstance(value, dict) and value:
                walk(value, at, [*keys, key])
            elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                lists.append((label, at, value))
            else:
                scalars.append((label, at, value))

    walk(section, path, [])
    return scalars, lists


def section_view(fig: Figures, exp_id: str, name: str, section: dict[str, Any], compact: bool = False) -> SectionView:
    """``compact``: lists of records become one raw-JSON control each instead of a table (used in the
    records view for experiments whose tables are already shown by a hand-designed view)."""
    path = pointer.join("/results", name)
    scalars, lists = flatten(section, path)
    values: list[list[Markup]] = []
    for label, at, value in scalars:
        if isinstance(value, list) and value and all(is_number(v) for v in value) and len(value) <= 16:
            cell = Markup(" ").join(fig.num(exp_id, pointer.join(at, i)) for i in range(len(value)))
        else:
            cell = fig.cell(exp_id, at, value)
        values.append([Markup.escape(label), cell])
    if compact:
        values += [[Markup.escape(label), fig.raw(exp_id, at, label="rows [ … ]")] for label, at, _rows in lists]
        tables: list[Table] = []
    else:
        tables = [records_table(fig, exp_id, at, rows, title=label) for label, at, rows in lists]
    if values:
        tables.insert(0, Table(title="values", path=path, columns=["key", "value"], rows=values))
    return SectionView(name=name, path=path, evidence=str(section.get("evidence")), tables=tables)


def records_table(fig: Figures, exp_id: str, path: str, rows: list[dict[str, Any]], title: str = "",
                  columns: list[str] | None = None, indices: list[int] | None = None) -> Table:
    """A table of a list of objects (or of the rows at ``indices``); nested objects become ``a.b`` columns."""
    picked = list(range(len(rows))) if indices is None else list(indices)
    index = picked[:MAX_ROWS]
    shown = [rows[i] for i in index]
    frame = pd.json_normalize(shown, sep=_SEP, max_level=1)
    cols = [c for c in frame.columns if columns is None or c.split(_SEP)[0] in columns]
    order = list(columns) if columns is not None else list(LEAD_COLUMNS)
    cols.sort(key=lambda c: order.index(c.split(_SEP)[0]) if c.split(_SEP)[0] in order else len(order))
    body: list[list[Markup]] = []
    for i, record in zip(index, shown):
        line = []
        for col in cols:
            tokens = col.split(_SEP)
            value = pointer.resolve(record, pointer.join("", *tokens), _ABSENT)
            line.append(Markup("") if value is _ABSENT
                        else list_cell(fig, exp_id, pointer.join(path, i, *tokens), value))
        body.append(line)
    keys = tuple(c.replace(_SEP, ".") for c in cols)
    return Table(title=title, path=path, columns=[header(k) for k in keys], rows=body,
                 truncated=len(picked) > MAX_ROWS, keys=keys)


def list_cell(fig: Figures, exp_id: str, path: str, value: Any) -> Markup:
    """A cell; a list of more than LIST_INLINE names shows its first few, how many, and a control opening the
    whole list (a long list wrapped in a narrow column made a row hundreds of pixels tall and mostly blank)."""
    if isinstance(value, list) and len(value) > LIST_INLINE and all(isinstance(v, str) for v in value):
        return Markup("{} … {}").format(", ".join(value[:LIST_INLINE - 2]),
                                        fig.raw(exp_id, path, label=f"all {len(value)}"))
    return fig.cell(exp_id, path, value)


def pivot_table(fig: Figures, exp_id: str, path: str, rows: list[dict[str, Any]], index: str, columns: str,
                value: str, title: str = "") -> Table:
    """``index`` × ``columns`` grid of ``value`` from a list of records (pandas pivot of row positions);
    each cell is the stored number at ``path/<row>/<value>``."""
    frame = pd.DataFrame({"row": range(len(rows)), index: [r[index] for r in rows],
                          columns: [r[columns] for r in rows]})
    grid = frame.pivot_table(index=index, columns=columns, values="row", aggfunc="first", sort=False)
    body = []
    for name, line in grid.iterrows():
        cells = [Markup.escape(str(name))]
        for col in grid.columns:
            at = line[col]
            cells.append(Markup("") if pd.isna(at) else fig.num(exp_id, pointer.join(path, int(at), value)))
        body.append(cells)
    corner = Markup("{} \\ {}").format(header(index), header(columns))
    return Table(title=title or value, path=path, columns=[corner, *map(str, grid.columns)], rows=body,
                 keys=(index, *[""] * len(grid.columns)))


def mapping_table(fig: Figures, exp_id: str, path: str, mapping: dict[str, dict[str, Any]], key_name: str,
                  title: str = "") -> Table:
    """A table of a ``{name: {field: value}}`` object: one row per name."""
    cols: list[str] = []
    for inner in mapping.values():
        cols += [c for c in inner if c not in cols]
    body = [[Markup.escape(name), *[list_cell(fig, exp_id, pointer.join(path, name, c), inner[c]) if c in inner
                                    else Markup("") for c in cols]] for name, inner in mapping.items()]
    return Table(title=title, path=path, columns=[key_name, *[header(c) for c in cols]], rows=body, keys=("", *cols))


def nowrap(table: Table, *columns: str) -> Table:
    """The same table with the cells of ``columns`` kept on one line (e.g. target names such as ``edge-10-nolut``)."""
    names = table.keys or tuple(table.columns)
    picked = [i for i, c in enumerate(names) if c in columns]
    rows = [[Markup('<span class="nowrap">{}</span>').format(cell) if i in picked else cell
             for i, cell in enumerate(row)] for row in table.rows]
    return replace(table, rows=rows)
