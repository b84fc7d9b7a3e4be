"""Renderers for lint reports: text, json, sarif, junit. Reports are data; rendering is here."""
from __future__ import annotations

from typing import Callable, Sequence

from npuready.lint.report import LintReport
from npuready.lint.render import json_format, text

RENDERERS: dict[str, Callable[[Sequence[LintReport]], str]] = {
    "text": text.render,
    "json": json_format.render,
}


def render(reports: Sequence[LintReport], fmt: str) -> str:
    return RENDERERS[fmt](reports)
