"""The standalone page ``npuready report`` writes beside its ``result.json``: ``report.html`` plus the
``assets/`` it loads (the same templates and assets as the site's model pages; dagre inlined). It opens from
file:// with no network request."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from npuready.site.modelpage import PAGE_ASSETS, asset, render_model_page

PAGE = "report.html"


def standalone_files(result: Mapping[str, Any]) -> dict[str, bytes]:
    """``{relative path: bytes}`` for one bare report (its sections at the JSON root)."""
    from npuready.site.render import environment

    label = str(result.get("model", {}).get("label", "model"))
    html = render_model_page(environment(), result, exp_id="report", title=f"Model report: {label}", root="",
                             prefix="", back=None, source="result.json")
    return {PAGE: html.encode("utf-8"), **{f"assets/{n}": asset(n) for n in PAGE_ASSETS}}


def write_standalone(result: Mapping[str, Any], out_dir: str | os.PathLike) -> Path:
    """Write ``report.html`` and its assets under ``out_dir`` (atomically, file by file); return the page."""
    from npuready.atomic import write_bytes

    out = Path(out_dir)
    for rel, data in sorted(standalone_files(result).items()):
        write_bytes(out / rel, data)
    return out / PAGE
