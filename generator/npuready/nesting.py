"""Depth-bounded parsing: a JSON or TOML document nested deeper than ``budget.MAX_NESTING`` is bad input.

The standard parsers recurse once per level (``json``'s C scanner, ``tomllib``), so 20,000 nested ``[``
end in ``RecursionError`` — an internal error, and one that later recursive code (a schema validator, a
renderer) hits at far smaller depths. ``parsed`` turns both into one ``InputError`` line: it runs the parser,
maps ``RecursionError``, then walks the result without recursion and refuses it above the budget.
``read_json`` adds what a reader of stored results needs first: a regular file (never a FIFO or device)
within a byte budget, checked before it is opened. A top-level module (not ``npuready.inputs``): the site
renderer, which imports nothing of the pipeline, reads results through it too.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, Callable

from npuready.errors import InputError
from npuready.inputs import budget


def depth(doc: Any) -> int:
    """How many lists/dicts are nested at the deepest point (0 for a scalar); iterative, never recurses."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, (list, tuple)):
            children = value
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children if isinstance(child, (dict, list, tuple)))
    return deepest


def too_deep(label: str, limit: int) -> InputError:
    return InputError(f"{label}: nested more than {limit} levels deep (arrays/tables inside each other); "
                      "refusing to parse it")


def parsed(parse: Callable[[], Any], label: str, limit: int = budget.MAX_NESTING) -> Any:
    """``parse()``'s document, refused with one line when it nests deeper than ``limit``."""
    try:
        doc = parse()
    except RecursionError:
        raise too_deep(label, limit) from None
    if depth(doc) > limit:
        raise too_deep(label, limit)
    return doc


def read_json(path: "str | os.PathLike", label: str | None = None,
              max_bytes: int = budget.MAX_RESULT_BYTES) -> Any:
    """The JSON document in ``path``: a regular file of at most ``max_bytes`` (checked before it is opened),
    UTF-8, nested within the budget. ``FileNotFoundError`` passes through; the rest is one InputError."""
    label = label or str(path)
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{label}: not a regular file; refusing to read it")
    if st.st_size > max_bytes:
        raise InputError(f"{label}: {st.st_size:,} bytes, above the {max_bytes:,}-byte budget")
    try:
        return parsed(lambda: json.loads(Path(path).read_text(encoding="utf-8")), label)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{label}: not valid JSON ({' '.join(str(exc).split())})") from None
