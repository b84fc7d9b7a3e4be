"""Playwright (Python) on Debian Chromium: open the built site from file:// and watch errors and requests."""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

from npuready.site.browser import chromium_path, is_local, launch

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Watch:
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    @property
    def network(self) -> list[str]:
        return [u for u in self.requests if not is_local(u)]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if chromium_path() is None:
        pytest.skip("no system Chromium at /usr/bin/chromium: run 'python tools/ensure_browser.py' "
                    "(apt-get install chromium); playwright install cannot download here")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed (pip install -e .[dev])")
    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def page_and_watch(browser: Any) -> Iterator[tuple[Any, Watch]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page = context.new_page()
    watch = Watch()
    page.on("console", lambda m: watch.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: watch.errors.append(f"pageerror: {e}"))
    page.on("request", lambda r: watch.requests.append(r.url))
    page.on("requestfailed", lambda r: watch.errors.append(f"requestfailed: {r.url}"))

    def on_dialog(d: Any) -> None:
        watch.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    yield page, watch
    context.close()


@pytest.fixture(scope="session")
def repo_site(tmp_path_factory) -> Path:
    """The repository's stored experiments and docs, rendered now into a temp dir (same content as site/ when it is
    fresh; staleness of the committed site/ is tests/commands/test_site.py's business)."""
    from npuready.commands.site import build_all, write_all

    root = tmp_path_factory.mktemp("repo-site")
    shutil.copytree(REPO / "docs", root / "docs")
    build, md = build_all(REPO / "experiments", root / "docs")
    write_all(build, md, root / "docs", root / "site")
    return root / "site"
