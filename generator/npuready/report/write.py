"""Write a model report as one set of files: ``DIR/result.json``, the page ``DIR/report.html`` rendered from that
JSON by the site's model-page templates (one self-contained file by default, or with ``inline=False`` the page plus
``DIR/assets/``, the site's layout) and ``DIR/timing.json``, the run's wall seconds (measured) — kept out of the
JSON and the page, so two runs on the same model write byte-identical ``result.json`` and ``report.html``.

The set is written atomically: staged in a folder beside ``DIR`` and renamed into place (replacing an earlier
report there), so a reader — or a full disk — never leaves a ``result.json`` without its page. ``DIR`` must be
new, an empty folder, or an earlier report (only the files above, each a regular file — ``assets/`` and
``model-explorer/`` folders); a folder holding anything else, or one of those names as a device, FIFO or
symlink, is refused (exit 2) before any work — give a new folder, or move the other files away. A symlinked
``DIR`` is written through to the folder it names. A failed write names the file and leaves ``DIR`` as it
was.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from npuready.atomic import dumps_json, kind_of
from npuready.errors import InputError

RESULT = "result.json"
TIMING = "timing.json"
MODEL_EXPLORER = "model-explorer"  # Model Explorer node data (``report --model-explorer``)
REPORT_ENTRIES = frozenset({RESULT, TIMING, "report.html", "assets", MODEL_EXPLORER})  # what an earlier report holds
FOLDER_ENTRIES = frozenset({"assets", MODEL_EXPLORER})  # of those, the folders (the others: regular files)


def check_out(out: str | os.PathLike) -> Path:
    """The folder a report to ``out`` lands in (a symlink followed); refuses a file, device or FIFO and a
    folder holding other files, before the work."""
    out = Path(out)
    target = Path(os.path.realpath(out) if out.is_symlink() else os.path.abspath(out))  # "." has no name to stage by
    if target.exists() and not target.is_dir():
        what = "a file" if target.is_file() else kind_of(target.stat().st_mode)
        raise InputError(f"--out {out}: is {what}, not a folder; give a folder for result.json and report.html")
    if target.is_dir():
        others = sorted(p.name for p in target.iterdir() if p.name not in REPORT_ENTRIES)
        if others:
            raise InputError(f"--out {out}: folder holds {len(others)} file(s) that are not an earlier report's "
                             f"(first: {others[0]!r}); give a new or empty folder, or an earlier report's")
        for entry in sorted(target.iterdir()):  # an earlier report's names, but a device, FIFO, link …: not ours
            mode = entry.lstat().st_mode
            folder = entry.name in FOLDER_ENTRIES
            if not (stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode)):
                what = "a symlink" if stat.S_ISLNK(mode) else "a file" if stat.S_ISREG(mode) else kind_of(mode)
                raise InputError(f"--out {out}: {entry.name} in it is {what}, not the {'folder' if folder else 'file'} "
                                 "an earlier report writes; npuready will not replace it — give a new folder")
    return target


def report_files(result: dict[str, Any], inline: bool = True) -> dict[str, bytes]:
    """``{relative path: bytes}`` of the report's file set (``timing.json`` only when ``result`` has timing)."""
    from npuready.site.standalone import standalone_files

    timing = result.get("timing")
    stable = {k: v for k, v in result.items() if k != "timing"}
    files = {RESULT: dumps_json(stable).encode("utf-8"), **standalone_files(stable, inline)}
    if timing is not None:
        files[TIMING] = dumps_json(timing).encode("utf-8")
    return files


def write_report(result: dict[str, Any], out_dir: str | os.PathLike, inline: bool = True,
                 model_explorer: bool = False) -> Path:
    """Write the file set of ``result`` to ``out_dir`` (see the module text); return the JSON's path. With
    ``model_explorer``, the set also holds ``model-explorer/<target>.<overlay>.json`` (``report.model_explorer``)."""
    from npuready.atomic import write_bytes
    from npuready.staged import Staged

    shown = Path(out_dir)
    out = check_out(shown)
    files = report_files(result, inline)
    if model_explorer:
        from npuready.report.model_explorer import node_data

        files.update({f"{MODEL_EXPLORER}/{name}": dumps_json(doc).encode("utf-8")
                      for name, doc in node_data(result).items()})
    with Staged(out) as staged:
        for rel, data in sorted(files.items()):
            try:
                write_bytes(staged.path / rel, data)
            except OSError as exc:
                raise InputError(f"{shown / rel}: cannot write: {exc.strerror or exc}; nothing was written to "
                                 f"{shown}") from exc
        staged.commit()
    return shown / RESULT
