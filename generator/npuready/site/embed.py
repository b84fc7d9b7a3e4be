"""Embed JSON inside ``<script type="application/json">`` safely, or as a ``.js`` file's argument (file://
pages cannot fetch, so data reaches the page as scripts).

``</script>``, ``<!--`` and friends inside strings would end or confuse the script element, so
``<``, ``>`` and ``&`` are written as ``\\u003c`` etc. (still the same JSON value), as are U+2028/2029.
"""
from __future__ import annotations

import json
from typing import Any

_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value: Any, indent: int | None = None) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, indent=indent,
                      separators=(",", ":") if indent is None else None)
    for raw, safe in _UNSAFE.items():
        text = text.replace(raw, safe)
    return text


def script_js(value: Any) -> str:
    """``value`` as a JavaScript expression for a ``.js`` file loaded by ``<script src>`` (compact JSON; no
    HTML parser reads it, so only U+2028/2029 are escaped — raw, older engines take them for line ends)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
