"""``docs/*.md`` → one page per document: its HTML and a table of contents. Raw HTML inside Markdown is shown as
text, never executed.

Headings move one level down (a document's title is an ``h2`` under the Docs view's ``h1``), heading ids are
prefixed with the document's anchor, and every in-page link becomes a deep link the page's router understands
(``#doc=<name>`` or ``#doc=<name>&h=<heading id>``). Wide tables sit in a keyboard-focusable scroll region.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

import markdown
from markupsafe import Markup, escape

from npuready.site.source import Doc

TOC_DEPTH = 2  # levels below the title listed in a document's contents (its ## and ### headings)


@dataclass(frozen=True)
class TocEntry:
    level: int  # 1 = a section of the document (## in Markdown), 2 = its subsection
    id: str
    text: str


@dataclass(frozen=True)
class DocPage:
    name: str  # "support", "rules/R001a"
    title: str
    html: Markup
    toc: tuple[TocEntry, ...] = ()

    @property
    def anchor(self) -> str:
        return "doc-" + re.sub(r"[^A-Za-z0-9_-]", "-", self.name)

    @property
    def group(self) -> str:
        return self.name.rsplit("/", 1)[0] if "/" in self.name else ""

    def link(self, heading: str = "") -> str:
        """The deep link to this document (or one of its headings)."""
        return f"#doc={self.name}" + (f"&h={heading}" if heading else "")


def _converter() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists", "toc"],
                           extension_configs={"toc": {"permalink": False, "baselevel": 2}}, output_format="html")
    # Untrusted text may reach docs through generated tables: escape raw HTML instead of passing it.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


def _toc(tokens: list[dict[str, Any]], prefix: str, depth: int = 1) -> list[TocEntry]:
    out: list[TocEntry] = []
    for t in tokens:
        if depth <= TOC_DEPTH:
            out.append(TocEntry(level=depth, id=f"{prefix}-{t['id']}", text=re.sub(r"<[^>]+>", "", t["name"])))
        out += _toc(t.get("children", []), prefix, depth + 1)
    return out


def render_doc(doc: Doc) -> DocPage:
    text = re.sub(r"<!--.*?-->\n?", "", doc.text, flags=re.DOTALL)  # generator notes; never shown
    page = DocPage(name=doc.name, title=doc.name, html=Markup(""))
    md = _converter()
    html = md.convert(text)
    match = re.search(r"^#\s+(.+)$", text, flags=re.MULTILINE)
    title = match.group(1).strip() if match else doc.name
    folder = posixpath.dirname(doc.name)
    tokens: list[dict[str, Any]] = md.toc_tokens  # type: ignore[attr-defined]
    # the title (a lone top heading) is not an entry of its own contents
    sections = tokens[0].get("children", []) if len(tokens) == 1 and tokens[0]["level"] == 2 else tokens
    toc = _toc(sections, page.anchor)

    def same_doc(m: re.Match) -> str:  # "#heading" inside this document
        return f'href="{escape(page.link(page.anchor + "-" + m.group(1)))}"'

    def other_doc(m: re.Match) -> str:  # links between docs become deep links to that doc (and heading)
        target = posixpath.normpath(posixpath.join(folder, m.group(1)))
        other = DocPage(name=target, title=target, html=Markup(""))
        return f'href="{escape(other.link(other.anchor + "-" + m.group(2) if m.group(2) else ""))}"'

    html = re.sub(r'href="#([A-Za-z0-9_-]+)"', same_doc, html)
    html = re.sub(r'href="(?!https?:|#|/)([A-Za-z0-9_./-]+)\.md(?:#([A-Za-z0-9_-]+))?"', other_doc, html)
    html = re.sub(r' id="', f' id="{page.anchor}-', html)
    count = iter(range(1, 10_000))
    html = re.sub(r"<table>", lambda _m: f'<div class="doc-table" tabindex="0" role="region" '
                                         f'aria-label="{escape(title)}: table {next(count)}"><table>', html)
    html = html.replace("</table>", "</table></div>")
    return DocPage(name=doc.name, title=title, html=Markup(html), toc=tuple(toc))
