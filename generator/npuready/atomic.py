"""Atomic file writes: a reader never sees a half-written file.

Only regular files are written. A symlinked target is written through: the new file replaces the file the
link ends at, and the link stays. A target that exists and is not a regular file (a device such as
``/dev/null``, a FIFO, a socket, a folder) is refused with ``NotRegularFile`` (bad input, exit 2) — the
rename would otherwise replace the device node itself, which as root means the system's ``/dev/null``.
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from npuready.errors import InputError

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


class NotRegularFile(InputError):
    """The output path exists and is not a regular file."""


def kind_of(mode: int) -> str:
    """``a folder``, ``a character device`` … for a ``st_mode`` that is not a regular file."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def resolve_target(path: str | os.PathLike) -> Path:
    """The regular file a write to ``path`` lands in: symlinks followed to their end (a dangling link to the
    file it names). Raises ``NotRegularFile`` when that exists and is not a regular file."""
    try:
        st = os.stat(path)  # follows symlinks, including /proc/self/fd/N magic links
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(f"{os.fspath(path)}: is {kind_of(st.st_mode)}, not a regular file; npuready writes "
                             "only regular files and will not replace it (give a file path, or - for stdout "
                             "where the option takes it)")
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)


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
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename (see the module
    text for symlinks and what is refused). ``durable=False`` skips the fsync (a cache entry: readers still
    see all or nothing; a crash may lose it)."""
    target = resolve_target(path)
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
