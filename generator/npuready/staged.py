"""A folder written as a set: staged beside its target, then renamed into place.

Used by ``npuready export`` (its artifact folder) and ``npuready report --out`` (the report's files), so a
reader — or a full disk — never sees half of the set.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


class Staged:
    """A temporary folder beside ``out``; ``commit()`` moves it into place (replacing an earlier one there)."""

    def __init__(self, out: Path):
        self.out = out
        out.parent.mkdir(parents=True, exist_ok=True)
        self.path = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".staging", dir=out.parent))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self.path, 0o777 & ~umask)  # mkdtemp's 0700 would hide the folder from other users

    def commit(self) -> Path:
        old = None
        if self.out.exists():
            old = self.out.parent / f".{self.out.name}.{os.getpid()}.old"
            os.replace(self.out, old)
        os.replace(self.path, self.out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return self.out

    def discard(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self) -> "Staged":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None or self.path.exists():
            self.discard()
