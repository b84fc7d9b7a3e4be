"""Text for a terminal: lines wrapped to its width, tables narrowed to fit it.

Every text renderer ends with ``block(lines, width)``. ``width=None`` means the terminal's width
(``shutil.get_terminal_size``: the ``COLUMNS`` variable, else the terminal on stdout), and 80 columns
when stdout is not a terminal (a pipe, a file, CI). A line that fits is kept as it is (tables stay
aligned); a longer one breaks at spaces, its continuation lines indented under it. A single token
longer than the width (a path, a URL) is never cut. JSON and the other machine formats do not come here.
"""
from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass

FALLBACK = 80  # columns when stdout is not a terminal
MINIMUM = 40  # below this, wrapping only makes text harder to read
CONTINUATION = 4  # extra indent of a wrapped line's continuation lines


def width(requested: int | None = None) -> int:
    """``requested`` if given, else the terminal's width (80 when stdout is not a terminal); at least 40."""
    columns = requested if requested is not None else shutil.get_terminal_size((FALLBACK, 24)).columns
    return max(MINIMUM, columns)


def wrap(line: str, columns: int) -> list[str]:
    """``line`` broken at spaces into lines of at most ``columns`` characters (longer single tokens excepted)."""
    if len(line) <= columns:
        return [line]
    indent = line[:len(line) - len(line.lstrip(" "))]
    more = indent + " " * min(CONTINUATION, max(0, columns // 2 - len(indent)))
    return textwrap.wrap(line.lstrip(" "), columns, initial_indent=indent, subsequent_indent=more,
                         break_long_words=False, break_on_hyphens=False, drop_whitespace=True) or [line]


def printable(text: str) -> str:
    """``text`` with every control character (ESC, BEL, CR, a newline inside a name …) shown as its escape,
    so names taken from a model never drive the terminal."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def block(lines: list[str], columns: int | None = None) -> str:
    """The lines, each made printable and wrapped to the width, joined with a final newline."""
    w = width(columns)
    return "\n".join(part for line in lines for part in (wrap(printable(line), w) if line else [""])) + "\n"


@dataclass(frozen=True)
class Column:
    """One table column: header, width, alignment ('<' or '>') and ``drop``: 0 never dropped, higher first."""

    title: str
    size: int
    align: str = ">"
    drop: int = 0


def table(columns: list[Column], rows: list[list[str]], columns_available: int | None = None,
          indent: str = "") -> tuple[list[str], list[str]]:
    """Header and row lines with the columns that fit the width (dropping the highest ``drop`` first), and
    the titles of the dropped columns. Cells longer than their column are cut (the first column keeps its
    tail, where node names differ)."""
    w = width(columns_available)
    keep = list(range(len(columns)))
    while sum(columns[i].size + 1 for i in keep) - 1 + len(indent) > w and any(columns[i].drop for i in keep):
        keep.remove(max(keep, key=lambda i: (columns[i].drop, i)))

    def line(cells: list[str]) -> str:
        parts = []
        for i in keep:
            c, text = columns[i], cells[i]
            if len(text) > c.size:
                text = ("…" + text[-(c.size - 1):]) if i == 0 else text[:c.size]
            parts.append(f"{text:{c.align}{c.size}}")
        return (indent + " ".join(parts)).rstrip()

    dropped = [c.title for i, c in enumerate(columns) if i not in keep]
    return [line([c.title for c in columns])] + [line(r) for r in rows], dropped


def overlong(text: str, columns: int) -> list[str]:
    """The lines of ``text`` longer than ``columns`` that could have been broken (more than one token)."""
    return [line for line in text.splitlines() if len(line) > columns and len(line.split()) > 1]
