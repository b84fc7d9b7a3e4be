"""The export folder, written as a set: staged beside the target, then renamed into place.

``--out`` must be new, an empty folder, or an earlier export (its ``manifest.json`` says
``kind = npuready-export``), which is replaced whole — never a folder holding anything else.
"""
from __future__ import annotations

import json
from pathlib import Path

from npuready.errors import InputError
from npuready.staged import Staged  # noqa: F401  (export's own name for it: export.stage imports it from here)

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
