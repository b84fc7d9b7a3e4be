"""``docs/*.md`` → HTML fragments. Raw HTML inside Markdown is shown as text, never executed."""
from __future__ import annotations

import re
from dataclasses import dataclass

import markdown
from markupsafe import Markup

from npuready.site.source import Doc


@dataclass(frozen=True)
class DocPage:
    name: str
    title: str
    html: Markup


def _converter() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists", "toc"],
                           extension_configs={"toc": {"permalink": False}}, output_format="html")
    # Untrusted text may reach docs through generated tables: escape raw HTML instead of passing it.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


def render_doc(doc: Doc) -> DocPage:
    md = _converter()
    html = md.convert(doc.text)
    match = re.search(r"^#\s+(.+)$", doc.text, flags=re.MULTILINE)
    title = match.group(1).strip() if match else doc.name
    # Links between docs (foo.md, foo.md#x) become in-page links to that doc's section.
    html = re.sub(r'href="(?:\./)?([A-Za-z0-9_.-]+)\.md(#[^"]*)?"', lambda m: f'href="#doc={m.group(1)}"', html)
    html = re.sub(r'id="', f'id="doc-{doc.name}-', html)
    return DocPage(name=doc.name, title=title, html=Markup(html))
