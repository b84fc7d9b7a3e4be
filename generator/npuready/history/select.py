"""Key-figure addresses that pick a table row by what it is about, not by where it sits.

A figure's address is a JSON pointer (RFC 6901) in which a segment may be a selector ``[key=value,...]``: in
a list, the one element (a dict) whose fields equal every ``value`` (compared as text; ``~1`` is ``/`` as in
any pointer token). ``/results/costs/rows/[model=resnet20,target=edge-10]/cycles`` keeps reading resnet20 on
edge-10 after rows are added or reordered, which an index (``/rows/49/cycles``) does not. No match, or more
than one, reads as absent.
"""
from __future__ import annotations

from typing import Any

from npuready.site.pointer import escape, split


def _selector(token: str) -> dict[str, str] | None:
    if not (token.startswith("[") and token.endswith("]")):
        return None
    pairs = [p.split("=", 1) for p in token[1:-1].split(",")]
    if not pairs or any(len(p) != 2 or not p[0] for p in pairs):
        raise ValueError(f"selector {token!r}: write [key=value,...]")
    return dict(pairs)


def _walk(doc: Any, pointer: str) -> tuple[str, Any] | None:
    """(plain pointer, value) that ``pointer`` addresses in ``doc``, selectors replaced by indices; None if absent."""
    node, out = doc, []
    for token in split(pointer):
        want = _selector(token)
        if want is not None:
            if not isinstance(node, list):
                return None
            hits = [i for i, row in enumerate(node) if isinstance(row, dict)
                    and all(k in row and str(row[k]) == v for k, v in want.items())]
            if len(hits) != 1:
                return None
            token = str(hits[0])
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
        out.append(escape(token))
    return "".join("/" + t for t in out), node


def concrete(doc: Any, pointer: str) -> str | None:
    """The plain JSON pointer ``pointer`` addresses in ``doc`` (selectors replaced by indices), or None."""
    found = _walk(doc, pointer)
    return None if found is None else found[0]


def select(doc: Any, pointer: str, default: Any = None) -> Any:
    """The value ``pointer`` (selectors allowed) addresses in ``doc``, or ``default``."""
    found = _walk(doc, pointer)
    return default if found is None else found[1]
