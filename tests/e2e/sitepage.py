"""Helpers for the table and search browser tests: build the repository's site, open it, show a view."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from npuready.commands.site import build_all, write_all

REPO = Path(__file__).resolve().parents[2]
VIEWS = ("findings", "models", "npu", "integer", "reports", "records", "docs")


def build_repo_site(root: Path) -> Path:
    """The repository's stored experiments and docs rendered into ``root/site`` (docs copied, not touched)."""
    shutil.copytree(REPO / "docs", root / "docs")
    build, md = build_all(REPO / "experiments", root / "docs")
    write_all(build, md, root / "docs", root / "site")
    return root / "site"


def results() -> dict[str, Any]:
    return {p.parent.name: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((REPO / "experiments").glob("*/result.json"))}


def open_site(page: Any, site: Path, fragment: str = "") -> None:
    page.goto((site / "index.html").as_uri() + fragment)
    page.wait_for_function("document.documentElement.dataset.tables === '1' && "
                           "document.documentElement.dataset.search === '1'")


def show(page: Any, view: str) -> None:
    """Show a view the way a reader does (the view API when the page has one, else its link) and wait until
    its tables are enhanced."""
    if page.evaluate("!!(window.npuready && window.npuready.showView)"):
        page.evaluate("v => window.npuready.showView(v)", view)
    else:
        page.evaluate("v => { location.hash = '#' + v; }", view)
    page.locator(f"#view-{view}").wait_for(state="visible")
    page.wait_for_function("v => [...document.querySelectorAll('#view-' + v + ' table')]"
                           ".every(t => t.dataset.enhanced)", arg=view)
