"""TOML documents read strictly: a regular file, a size budget checked before reading, UTF-8, bounded nesting."""
from __future__ import annotations

import os
import tomllib
from typing import Any

from npuready.errors import InputError
from npuready.inputs import budget
from npuready.inputs.files import regular_file
from npuready.nesting import parsed


def parse_toml(data: bytes, label: str) -> dict[str, Any]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                         "save it as UTF-8") from None
    try:
        return parsed(lambda: tomllib.loads(text), label)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{label}: not valid TOML ({exc}); fix the syntax") from None


def read_toml(path: "str | os.PathLike", label: str | None = None, *, inside=None,
              max_bytes: int = budget.MAX_CONFIG_BYTES) -> dict[str, Any]:
    """The document in ``path``: checked to be a regular file within ``max_bytes`` before it is opened."""
    label = label or str(path)
    p = regular_file(path, label, inside=inside, what="TOML file")
    size = p.stat().st_size
    if size > max_bytes:
        raise InputError(f"{label}: {size:,} bytes, above the {max_bytes:,}-byte budget for a TOML file")
    return parse_toml(p.read_bytes(), label)
