"""``docs/*.md`` → HTML fragments. Raw HTML inside Markdown is shown as text, never executed."""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

import markdown
from markupsafe import Markup

from npuready.site.source import Doc


@dataclass(frozen=True)
class DocPage:
    name: str  # "support", "rules/R001a"
    title: str
    html: Markup

    @property
    def anchor(self) -> str:
        return "doc-" + re.sub(r"[^A-Za-z0-9_-]", "-", self.name)

    @property
    def group(self) -> str:
        return self.name.rsplit("/", 1)[0] if "/" in self.name else ""


def _converter() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists", "toc"],
                           extension_configs={"toc": {"permalink": False}}, output_format="html")
    # Untrusted text may reach docs through generated tables: escape raw HTML instead of passing it.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


def render_doc(doc: Doc) -> DocPage:
    text = re.sub(r"<!--.*?-->\n?", "", doc.text, flags=re.DOTALL)  # generator notes; never shown
    page = DocPage(name=doc.name, title=doc.name, html=Markup(""))
    html = _converter().convert(text)
    match = re.search(r"^#\s+(.+)$", text, flags=re.MULTILINE)
    title = match.group(1).strip() if match else doc.name
    folder = posixpath.dirname(doc.name)

    def link(m: re.Match) -> str:  # links between docs become in-page links to that doc's section
        target = posixpath.normpath(posixpath.join(folder, m.group(1)))
        return f'href="#doc={target}"'

    html = re.sub(r'href="(?!https?:|#|/)([A-Za-z0-9_./-]+)\.md(?:#[^"]*)?"', link, html)
    html = re.sub(r' id="', f' id="{page.anchor}-', html)
    return DocPage(name=doc.name, title=title, html=Markup(html))
