"""Atomic file writes: a reader never sees a half-written file."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def _mode(target: Path) -> int:
    """The mode a plain ``open(target, "w")`` would leave: the existing file's, else 0o666 minus the umask
    (``mkstemp`` alone would make every report, export and site page private, 0o600)."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_bytes(path: str | os.PathLike, data: bytes, *, durable: bool = True) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename. ``durable=False``
    skips the fsync (a cache entry: readers still see all or nothing; a crash may lose it)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, _mode(target))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def write_text(path: str | os.PathLike, text: str, *, durable: bool = True) -> Path:
    return write_bytes(path, text.encode("utf-8"), durable=durable)


def dumps_json(obj: Any) -> str:
    """The project's one JSON style: sorted keys, two-space indent, trailing newline."""
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_json(path: str | os.PathLike, obj: Any) -> Path:
    return write_text(path, dumps_json(obj))
