"""The page ``npuready report`` writes beside its ``result.json``: by default one file, ``report.html``, with the
report JSON, styles, scripts and the dagre layout inlined, so it works alone (attached to a pull request, copied
into an empty folder) from file:// with no request; with ``inline=False`` the site's layout instead (the page plus
the ``assets/`` it loads, as on ``site/models/``)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from npuready.site.modelpage import PAGE_ASSETS, asset, render_model_page

PAGE = "report.html"
# the size budget of the self-contained page beyond the report JSON it embeds (styles, scripts, dagre, markup);
# README's "Your own model" section states it and tests/site/test_standalone.py holds the page to it
OVERHEAD_BUDGET_BYTES = 160 * 1024


def standalone_files(result: Mapping[str, Any], inline: bool = True) -> dict[str, bytes]:
    """``{relative path: bytes}`` for one bare report (its sections at the JSON root)."""
    from npuready.site.render import environment

    label = str(result.get("model", {}).get("label", "model"))
    html = render_model_page(environment(), result, exp_id="report", title=f"Model report: {label}", root="",
                             prefix="", back=None, source="result.json", inline=inline)
    files = {PAGE: html.encode("utf-8")}
    if not inline:
        files.update({f"assets/{n}": asset(n) for n in PAGE_ASSETS})
    return files


def write_standalone(result: Mapping[str, Any], out_dir: str | os.PathLike, inline: bool = True) -> Path:
    """Write ``report.html`` (and with ``inline=False`` its assets) under ``out_dir``, atomically file by file;
    return the page."""
    from npuready.atomic import write_bytes

    out = Path(out_dir)
    for rel, data in sorted(standalone_files(result, inline).items()):
        write_bytes(out / rel, data)
    return out / PAGE
