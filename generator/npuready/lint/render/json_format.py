"""JSON rendering: one report object, or a list when several models were linted."""
from __future__ import annotations

from typing import Sequence

from npuready.atomic import dumps_json
from npuready.lint.render.options import RenderOptions
from npuready.lint.report import LintReport


def render(reports: Sequence[LintReport], options: RenderOptions | None = None) -> str:
    data = [r.to_dict() for r in reports]
    return dumps_json(data[0] if len(data) == 1 else data)
