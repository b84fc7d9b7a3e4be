"""Strings from results become literal Markdown text: no link, image, HTML or control character survives."""
from __future__ import annotations

import pytest

markdown = pytest.importorskip("markdown")

from npuready.docs_gen.experiments import md_text  # noqa: E402

HOSTILE = [
    "[click](javascript:alert(1))", "![x](https://evil.example/x.png)", "[a](data:text/html;base64,PHNjcmlwdD4=)",
    "[v](vbscript:msgbox)", "<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "`code` **b** _i_",
    "a | b", "line\nbreak", "\x1b[31mred\x1b[0m", "[ref]: https://evil.example", "<https://evil.example>",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_renders_as_text(text):
    html = markdown.markdown(f"| c |\n|---|\n| {md_text(text)} |", extensions=["tables"]) + \
        markdown.markdown(md_text(text))
    for bad in ("<a ", "<img", "<script", "<code", "<strong", "<em", "\x1b"):
        assert bad not in html, (text, html)
