"""Write a model report: ``DIR/result.json`` (atomic). The HTML page is rendered from this JSON by the site."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from npuready.atomic import write_json


def write_report(result: dict[str, Any], out_dir: str | os.PathLike) -> Path:
    """Write ``result`` to ``out_dir/result.json`` and return that path."""
    return write_json(Path(out_dir) / "result.json", result)
