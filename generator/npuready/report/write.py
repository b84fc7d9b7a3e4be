"""Write a model report: ``DIR/result.json`` and the page ``DIR/report.html`` rendered from that JSON by the site's
model-page templates — one self-contained file by default, or with ``inline=False`` the page plus ``DIR/assets/``
(the site's layout). All writes are atomic."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from npuready.atomic import write_json


def write_report(result: dict[str, Any], out_dir: str | os.PathLike, inline: bool = True) -> Path:
    """Write ``result`` to ``out_dir/result.json`` and the page beside it; return the JSON's path."""
    from npuready.site.standalone import write_standalone

    path = write_json(Path(out_dir) / "result.json", result)
    write_standalone(result, out_dir, inline)
    return path
