"""Renderers for lint reports: text, json, sarif, junit. Reports are data; rendering is here."""
from __future__ import annotations

from typing import Callable, Sequence

from npuready.lint.render import json_format, junit, sarif, text
from npuready.lint.render.options import RenderOptions
from npuready.lint.report import LintReport

RENDERERS: dict[str, Callable[[Sequence[LintReport], RenderOptions], str]] = {
    "text": text.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "junit": junit.render,
}


def render(reports: Sequence[LintReport], fmt: str = "text", options: RenderOptions | None = None) -> str:
    return RENDERERS[fmt](reports, options or RenderOptions())
