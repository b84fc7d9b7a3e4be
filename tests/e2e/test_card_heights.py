"""The findings page is a first screen: every headline card on the real built site stays short.

Renders the repository's stored experiments to a temporary directory and measures each card in Debian Chromium
(Playwright) at a 1280-px-wide viewport, with the session's shared browser (tests/e2e/conftest.py).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from npuready.commands.site import build_all, write_all

REPO = Path(__file__).resolve().parents[2]
BOUND_PX = 600


def test_no_findings_card_is_taller_than_a_first_screen_allows(tmp_path, browser):
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    build, md = build_all(REPO / "experiments", tmp_path / "docs")
    write_all(build, md, tmp_path / "docs", tmp_path / "site")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto((tmp_path / "site" / "index.html").as_uri())
        page.wait_for_function("document.documentElement.dataset.ready === '1'")
        heights = dict(page.evaluate("""[...document.querySelectorAll('#view-findings article.card.finding')]
            .map(e => [e.dataset.exp, e.getBoundingClientRect().height])"""))
    finally:
        context.close()
    assert {"pruning", "intake", "partitions", "cost-per-target"} <= set(heights)
    too_tall = {exp: round(h) for exp, h in heights.items() if h > BOUND_PX}
    assert too_tall == {}, f"findings cards taller than {BOUND_PX} px at 1280 px wide: {too_tall}"
