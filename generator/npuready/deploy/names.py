"""Registry names and paths: what a name may be, and the check that every path the registry writes lies
inside it.

A registry name (the ``--name`` option, or the model file's stem by default) and a target name become
folder names under the registry root, so they are validated before anything is written: 1–128
characters from ``A–Z a–z 0–9 . _ -``, starting with a letter or digit (so no leading dot, no ``..``,
no separators, no absolute paths), and not a name the registry uses itself (``index.json``, compared
without case). Every path is resolved (symlinks followed) and must stay inside the resolved root.
"""
from __future__ import annotations

import re
from pathlib import Path

from npuready.errors import InputError

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
#: names the registry itself uses at its root (compared lower-case: case-insensitive file systems)
RESERVED = frozenset({"index.json"})


def check_name(name: str, what: str = "registry name", origin: str = "") -> str:
    """``name`` if it is a valid registry folder name, else InputError saying which rule it breaks."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        why = ("starts with a dot" if isinstance(name, str) and name.startswith(".") else
               "contains a path separator" if isinstance(name, str) and ("/" in name or "\\" in name) else
               "is empty" if not name else "uses characters outside A-Z a-z 0-9 . _ - or is longer than 128")
        raise InputError(f"{what} {name!r}{origin}: {why}; use 1-128 characters from A-Z a-z 0-9 . _ - starting "
                         "with a letter or digit" + (" (give --name)" if origin else ""))
    if name.lower() in RESERVED:
        raise InputError(f"{what} {name!r}{origin}: reserved by the registry (its index); choose another name"
                         + (" with --name" if origin else ""))
    return name


def inside(root: Path, path: Path) -> Path:
    """``path`` resolved (symlinks followed), refused unless it lies inside the resolved ``root``."""
    base = root.resolve()
    real = path.resolve()
    if real != base and base not in real.parents:
        raise InputError(f"{path}: resolves to {real}, outside the registry {base} (a symlink?); the registry "
                         "writes only inside its folder — remove the link or choose another registry")
    return real
