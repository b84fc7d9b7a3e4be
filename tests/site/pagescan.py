"""Read a built index.html back: number buttons, raw buttons, script and img elements, visible text."""
from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Page:
    nums: list[dict[str, str]] = field(default_factory=list)  # attrs + "text"
    raws: list[dict[str, str]] = field(default_factory=list)
    scripts: list[dict[str, str]] = field(default_factory=list)  # attrs + "text"
    tags: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._open: dict[str, str] | None = None
        self._script: dict[str, str] | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        self.page.tags.append(tag)
        if "id" in a:
            self.page.ids.append(a["id"])
        if tag == "button" and a.get("class") in ("num", "raw"):
            self._open = {**a, "text": ""}
        if tag == "script":
            self._script = {**a, "text": ""}

    def handle_endtag(self, tag):
        if tag == "button" and self._open is not None:
            (self.page.nums if self._open["class"] == "num" else self.page.raws).append(self._open)
            self._open = None
        if tag == "script" and self._script is not None:
            self.page.scripts.append(self._script)
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script["text"] += data
            return
        if self._open is not None:
            self._open["text"] += data
        self.page.text.append(data)


def scan(html: str) -> Page:
    s = _Scanner()
    s.feed(html)
    s.close()
    return s.page
