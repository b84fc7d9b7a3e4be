"""The export folder, written as a set: staged beside the target, then renamed into place.

``--out`` must be new, an empty folder, or an earlier export (its ``manifest.json`` says
``kind = npuready-export``), which is replaced whole — never a folder holding anything else.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from npuready.errors import InputError

KIND = "npuready-export"
MANIFEST = "manifest.json"


def check_out(out: Path) -> None:
    """Refuse an ``--out`` the export would clobber (exit 2), before any work."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise InputError(f"--out {out}: exists and is not a folder; give a new folder or an earlier export")
    if not out.exists():
        return
    entries = [p.name for p in out.iterdir()]
    if not entries:
        return
    manifest = out / MANIFEST
    try:
        kind = json.loads(manifest.read_text(encoding="utf-8")).get("kind") if manifest.is_file() else None
    except (OSError, ValueError, AttributeError, RecursionError):
        kind = None
    if kind != KIND:
        raise InputError(f"--out {out}: folder holds {len(entries)} file(s) and is not an earlier export "
                         f"(no {MANIFEST} of kind {KIND}); give a new or empty folder")


class Staged:
    """A temporary folder beside ``out``; ``commit()`` moves it into place (replacing an earlier export)."""

    def __init__(self, out: Path):
        self.out = out
        out.parent.mkdir(parents=True, exist_ok=True)
        self.path = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".staging", dir=out.parent))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self.path, 0o777 & ~umask)  # mkdtemp's 0700 would hide the export from other users

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
