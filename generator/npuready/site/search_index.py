"""The search index: every stored value and text of every result, as (experiment id, JSON pointer, text).

Written as ``site/data/search.index.js`` (``npuready.registerSearch({...})``: file:// pages cannot fetch, so the
page loads it with a ``<script src>`` the first time someone searches; ``assets/search.js`` reads it). Compact:
each distinct text is stored once, and each experiment's pointers are grouped by their shape (list positions as
``*``), e.g. ``/results/layers/*/cycles``, with the values of that column in list order. Object keys are
searchable through those shapes. Numbers are indexed as stored (``0.28536``) and, when it is not already a
part of that, as the site shows them (``0.2854``).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from npuready.site import pointer
from npuready.site.fmt import format_number, is_number
from npuready.site.modelindex import is_model_report, page_path
from npuready.site.source import Experiment
from npuready.site.volatile import COMMIT_POINTER

INDEX_VERSION = 1
INDEX_FILE = "data/search.index.js"  # a dot cannot occur in an experiment id, so no result file collides


@dataclass(frozen=True)
class Entry:
    exp_id: str
    pointer: str
    text: str


def value_text(value: Any) -> str:
    """How a stored scalar is searched: strings as they are, numbers as stored plus as shown on the site."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    stored = repr(value)  # what json.dumps writes for a finite int or float
    if is_number(value):
        shown = format_number(value)
        if shown.replace(",", "") not in stored:
            return f"{stored} {shown}"
    return stored


def _leaves(node: Any, tokens: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*tokens, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, (*tokens, i))
    else:
        yield tokens, node


# The commit a result was produced at is not content (site/volatile.py): a rerun that stores the same values at
# another commit must leave the index, like every other generated file, unchanged.
NOT_INDEXED = frozenset({COMMIT_POINTER})


def entries(exp_id: str, doc: Any) -> Iterator[Entry]:
    """Every scalar (string, number, true/false, null) of a result with its pointer, in document order (except
    ``NOT_INDEXED``)."""
    for tokens, value in _leaves(doc, ()):
        path = pointer.join("", *tokens)
        if path not in NOT_INDEXED:
            yield Entry(exp_id, path, value_text(value))


def _shaped(node: Any, shape: str, positions: tuple[int, ...], out: list[tuple[str, tuple[int, ...], Any]]) -> list:
    """Each scalar with its pointer shape (``/results/layers/*/cycles``; a ``*`` inside a key is stored as ``~2``)
    and the list positions that fill the stars, appended to ``out`` in document order."""
    if isinstance(node, dict):
        for key, value in node.items():
            _shaped(value, shape + "/" + pointer.escape(key).replace("*", "~2"), positions, out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _shaped(value, shape + "/*", (*positions, i), out)
    else:
        out.append((shape, positions, node))
    return out


def build_index(experiments: Mapping[str, Experiment]) -> dict[str, Any]:
    """``{"v", "texts", "records": [{"id", "title", "view", "evidence", "page", "paths", "cols"}]}`` (``page``: the
    model page that carries a model report whole, else "").

    ``paths[k]`` is a pointer shape; ``cols`` holds, per shape, ``[k, cell, …]`` in document order: a cell is
    ``t`` (an index into ``texts``) when its list positions follow the previous cell's (last position + 1,
    starting from all zeros), else ``[i, (j, …,) t]``."""
    shaped: list[tuple[str, Experiment, dict[str, list[tuple[tuple[int, ...], str]]]]] = []
    uses: Counter[str] = Counter()
    for exp_id, exp in sorted(experiments.items()):
        shapes: dict[str, list[tuple[tuple[int, ...], str]]] = {}
        for shape, positions, value in _shaped(exp.doc, "", (), []):
            if shape in NOT_INDEXED:
                continue
            text = value_text(value)
            uses[text] += 1
            shapes.setdefault(shape, []).append((positions, text))
        shaped.append((exp_id, exp, shapes))
    texts = sorted(uses, key=lambda t: -uses[t])  # the most frequent texts get the shortest indices
    number = {t: n for n, t in enumerate(texts)}
    records = [{"id": exp_id, "title": exp.title, "view": exp.view, "evidence": exp.evidence(),
                "page": page_path(exp_id) if is_model_report(exp) else "", "paths": list(shapes),
                "cols": [_column(k, [(pos, number[t]) for pos, t in cells]) for k, cells in enumerate(shapes.values())]}
               for exp_id, exp, shapes in shaped]
    return {"v": INDEX_VERSION, "texts": texts, "records": records}


def _column(k: int, cells: list[tuple[tuple[int, ...], int]]) -> list[Any]:
    out: list[Any] = [k]
    expected: tuple[int, ...] | None = None
    for positions, t in cells:
        if expected is None:
            expected = (0,) * len(positions)
        out.append(t if positions == expected else [*positions, t])
        expected = (*positions[:-1], positions[-1] + 1) if positions else ()
    return out


def decode(index: dict[str, Any]) -> Iterator[Entry]:
    """The entries back from the compact form (what assets/search.js does; used by the tests)."""
    texts = index["texts"]
    for rec in index["records"]:
        for col in rec["cols"]:
            shape = rec["paths"][col[0]].split("/")
            positions = [0] * shape.count("*")
            for cell in col[1:]:
                if isinstance(cell, list):
                    positions, t = list(cell[:-1]), cell[-1]
                else:
                    t = cell
                filled = iter(positions)
                tokens = [str(next(filled)) if s == "*" else s.replace("~2", "*") for s in shape]
                yield Entry(rec["id"], "/".join(tokens), texts[t])
                if positions:
                    positions = [*positions[:-1], positions[-1] + 1]


def search_script(experiments: Mapping[str, Experiment]) -> str:
    """The lazily loaded file: one call registering the index."""
    body = json.dumps(build_index(experiments), ensure_ascii=False, separators=(",", ":"))
    body = body.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"npuready.registerSearch({body});\n"
