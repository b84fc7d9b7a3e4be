"""Drill-down references: the compact ``data-n`` attribute and the pointer table each page file carries.

``Figures`` numbers every distinct ``(exp_id, pointer)`` once per build. A page file (index.html's first view,
``views/<name>.js``) renumbers the references it uses, 0..n-1 in sorted order, and ships their table packed:
``{"e": [exp ids], "r": [[exp index, shared prefix length, pointer suffix], ...]}`` — each pointer is stored as the
characters it does not share with the pointer before it (neighbouring table rows share most of theirs).
``assets/site.js`` unpacks it the same way. :func:`expand` turns ``data-n`` back into the readable
``data-exp``/``data-path`` pair (tests and tools read pages that way).
"""
from __future__ import annotations

import os
import re
from typing import Any, Sequence

from markupsafe import escape

_REF = re.compile(r'data-n="(\d+)"')  # numbers.py writes it; escaped text can never contain this attribute

Ref = tuple[str, str]


def localize(html: str, table: Sequence[Ref]) -> tuple[str, list[Ref]]:
    """``html`` renumbered to the references it uses, and those references in local order."""
    used = sorted({table[int(n)] for n in _REF.findall(html)})
    local = {ref: i for i, ref in enumerate(used)}
    return _REF.sub(lambda m: f'data-n="{local[table[int(m.group(1))]]}"', html), used


def pack(refs: Sequence[Ref]) -> dict[str, Any]:
    exps = sorted({e for e, _ in refs})
    index = {e: i for i, e in enumerate(exps)}
    rows, previous = [], ""
    for exp_id, path in refs:
        shared = len(os.path.commonprefix([previous, path]))
        rows.append([index[exp_id], shared, path[shared:]])
        previous = path
    return {"e": exps, "r": rows}


def unpack(packed: dict[str, Any]) -> list[Ref]:
    out, previous = [], ""
    for exp_index, shared, suffix in packed["r"]:
        previous = previous[:shared] + suffix
        out.append((packed["e"][exp_index], previous))
    return out


def expand(html: str, table: Sequence[Ref]) -> str:
    """``data-n="k"`` → ``data-exp="…" data-path="…"`` (the pair ``table[k]`` stands for)."""
    def pair(m: re.Match[str]) -> str:
        exp_id, path = table[int(m.group(1))]
        return f'data-exp="{escape(exp_id)}" data-path="{escape(path)}"'

    return _REF.sub(pair, html)
