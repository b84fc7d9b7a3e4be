"""Registry names and paths: what a name may be, and the check that every path the registry writes lies
inside it.

A registry name (the ``--name`` option, or the model file's stem by default) and a target name become
folder names under the registry root, so they are validated before anything is written: 1–128
characters from ``A–Z a–z 0–9 . _ -``, starting with a letter or digit (so no leading dot, no ``..``,
no separators, no absolute paths), not ending in a dot (Windows drops it: ``a.`` is ``a``), not a Windows
device name (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM1``–``COM9``, ``LPT1``–``LPT9``, with or without an
extension, any case) and not a name the registry uses itself (``index.json``, compared without case). A name
that differs only in case from one already in the registry is refused by the registry (``case_clash``): the
two would be one folder on a case-insensitive file system. Every path is resolved (symlinks followed) and
must stay inside the resolved root.
"""
from __future__ import annotations

import re
from pathlib import Path

from npuready.errors import InputError

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
#: names the registry itself uses at its root (compared lower-case: case-insensitive file systems)
RESERVED = frozenset({"index.json"})
#: Windows device names: a folder so named cannot be created or read there (also with an extension: CON.txt)
DEVICES = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                     *(f"lpt{i}" for i in range(1, 10))})


def check_name(name: str, what: str = "registry name", origin: str = "") -> str:
    """``name`` if it is a valid registry folder name, else InputError saying which rule it breaks."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        why = ("starts with a dot" if isinstance(name, str) and name.startswith(".") else
               "contains a path separator" if isinstance(name, str) and ("/" in name or "\\" in name) else
               "is empty" if not name else "uses characters outside A-Z a-z 0-9 . _ - or is longer than 128")
        raise InputError(f"{what} {name!r}{origin}: {why}; use 1-128 characters from A-Z a-z 0-9 . _ - starting "
                         "with a letter or digit" + (" (give --name)" if origin else ""))
    hint = " with --name" if origin else ""
    if name.endswith("."):
        raise InputError(f"{what} {name!r}{origin}: ends with a dot, which Windows drops (it would alias "
                         f"{name.rstrip('.')!r}); choose another name{hint}")
    if name.split(".")[0].lower() in DEVICES:
        raise InputError(f"{what} {name!r}{origin}: {name.split('.')[0].upper()} is a Windows device name, not "
                         f"usable as a folder there; choose another name{hint}")
    if name.lower() in RESERVED or name.lower().rstrip(".") in RESERVED:
        raise InputError(f"{what} {name!r}{origin}: reserved by the registry (its index); choose another name{hint}")
    return name


def case_clash(name: str, existing, what: str = "registry name") -> None:
    """Refuse ``name`` when one of ``existing`` names differs from it only in case (they alias as folders on
    case-insensitive file systems: macOS, Windows)."""
    other = next((e for e in existing if e != name and e.lower() == name.lower()), None)
    if other is not None:
        raise InputError(f"{what} {name!r}: differs only in case from {other!r}, already in the registry; on a "
                         f"case-insensitive file system both are one folder — use {other!r} or another name")


def inside(root: Path, path: Path) -> Path:
    """``path`` resolved (symlinks followed), refused unless it lies inside the resolved ``root``."""
    base = root.resolve()
    real = path.resolve()
    if real != base and base not in real.parents:
        raise InputError(f"{path}: resolves to {real}, outside the registry {base} (a symlink?); the registry "
                         "writes only inside its folder — remove the link or choose another registry")
    return real
