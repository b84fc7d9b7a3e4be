"""JSON documents read strictly: a size budget, UTF-8, bounded nesting, no NaN/Infinity literals, then a JSON
Schema."""
from __future__ import annotations

import json
import os
from typing import Any

from npuready.errors import InputError
from npuready.inputs import budget
from npuready.inputs.files import regular_file
from npuready.nesting import parsed
from npuready.inputs.schema_errors import first_error


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number; numbers must be finite")


def parse_json(data: bytes, label: str) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label}: not UTF-8 text (byte {exc.start})") from None
    try:
        return parsed(lambda: json.loads(text, parse_constant=_no_constants), label)
    except json.JSONDecodeError as exc:
        raise InputError(f"{label}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except ValueError as exc:
        raise InputError(f"{label}: {exc}") from None


def read_json(path: "str | os.PathLike", schema: dict[str, Any] | None = None, label: str | None = None, *,
              inside=None, max_bytes: int = budget.MAX_MANIFEST_BYTES) -> Any:
    """The document in ``path``, validated against ``schema``; one-line InputError otherwise."""
    label = label or str(path)
    p = regular_file(path, label, inside=inside, what="JSON file")
    size = p.stat().st_size
    if size > max_bytes:
        raise InputError(f"{label}: {size:,} bytes, above the {max_bytes:,}-byte budget")
    doc = parse_json(p.read_bytes(), label)
    if schema is not None and (problem := first_error(schema, doc)):
        raise InputError(f"{label}: {problem}")
    return doc
