"""Write a model report: ``DIR/result.json`` and the standalone page ``DIR/report.html`` (+ ``DIR/assets/``),
rendered from that JSON by the site's model-page templates. All writes are atomic."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from npuready.atomic import write_json


def write_report(result: dict[str, Any], out_dir: str | os.PathLike) -> Path:
    """Write ``result`` to ``out_dir/result.json`` and the page beside it; return the JSON's path."""
    from npuready.site.standalone import write_standalone

    path = write_json(Path(out_dir) / "result.json", result)
    write_standalone(result, out_dir)
    return path
