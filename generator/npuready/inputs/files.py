"""Regular files only, and only inside the folder they must stay in."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from npuready.errors import InputError


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"


def regular_file(path: "str | os.PathLike", label: str | None = None, *, inside: "Path | None" = None,
                 what: str = "file") -> Path:
    """``path`` resolved, after checking it exists, is a regular file (never opened otherwise) and, with
    ``inside``, lies inside that folder once every symlink is resolved."""
    label = label or str(path)
    p = Path(path)
    try:
        resolved = p.resolve(strict=True)
    except FileNotFoundError:
        raise InputError(f"{label}: no such {what}") from None
    except (OSError, RuntimeError) as exc:  # symlink loops, permission on a parent
        raise InputError(f"{label}: cannot resolve the path ({exc})") from None
    if inside is not None:
        root = Path(inside).resolve()
        if not resolved.is_relative_to(root):
            raise InputError(f"{label}: resolves to {resolved}, outside {root}; refusing to read it")
    mode = resolved.stat().st_mode
    if not stat.S_ISREG(mode):
        raise InputError(f"{label}: is {_kind(mode)}, expected a regular {what}")
    return resolved


def relative_inside(folder: Path, rel: object, label: str) -> Path:
    """A manifest entry ``rel`` as a path inside ``folder``: a relative string with no '..' or drive."""
    if not isinstance(rel, str) or not rel:
        raise InputError(f"{label}: expected a path inside {folder.name}/, got {rel!r}")
    if "\x00" in rel or os.path.isabs(rel) or rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        raise InputError(f"{label}: expected a path inside {folder.name}/, got the absolute path {rel!r}")
    if any(part == ".." for part in Path(rel.replace("\\", "/")).parts):
        raise InputError(f"{label}: expected a path inside {folder.name}/, got {rel!r} (no '..')")
    return regular_file(folder / rel, label, inside=folder)
