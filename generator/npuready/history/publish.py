"""Write the history document next to the site: ``history.json`` and ``history-data.js``.

``history-data.js`` is the same JSON assigned to ``window.NPUREADY_HISTORY``, because a page opened from
file:// cannot fetch a JSON file but can load a script beside it. Both files depend on the repository's
history, which moves with every commit, so they are built (``npuready site``, the Pages workflow with the
full history), not committed (.gitignore) and not part of ``npuready site --check``. Without them, or when
git or the history is unavailable, the History view says so.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from npuready.atomic import write_text
from npuready.history.timeline import build_history

HISTORY_JSON = "history.json"
HISTORY_SCRIPT = "history-data.js"
GLOBAL = "NPUREADY_HISTORY"


def script_text(doc: dict[str, Any]) -> str:
    """``doc`` as a script assigning it to ``window.NPUREADY_HISTORY`` (JSON is a JavaScript literal)."""
    return f"window.{GLOBAL} = {json.dumps(doc, sort_keys=True, ensure_ascii=True)};\n"


def write_history(out: Path, repo_root: Path) -> tuple[dict[str, Any], list[Path]]:
    """Build the history of ``repo_root`` and write both files into the site folder ``out``."""
    doc = build_history(repo_root)
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    return doc, [write_text(out / HISTORY_JSON, text), write_text(out / HISTORY_SCRIPT, script_text(doc))]


def summary_line(doc: dict[str, Any]) -> str:
    if not doc["available"]:
        return f"history: unavailable ({doc['reason']}); the History view says so"
    skipped = doc.get("skipped") or []
    note = (f"; skipped {len(skipped)} unreadable stored result(s), counted absent (first: "
            f"{skipped[0]['experiment']} at {skipped[0]['commit']}: {skipped[0]['reason']}; all under 'skipped' in "
            f"{HISTORY_JSON})") if skipped else ""
    return (f"history: {len(doc['commits'])} commits that changed a stored result, "
            f"{len(doc['experiments'])} experiments{note}")
