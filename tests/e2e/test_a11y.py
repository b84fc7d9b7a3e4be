"""axe-core (vendored by tools/vendor_js.sh into tests/e2e/vendor/, test-only: never shipped in the page) on every view
of the site built from this repository's stored results, on a desktop and a phone screen: no critical or serious
violation, no skipped heading level, every piece of content inside a landmark."""
from __future__ import annotations

import json
from pathlib import Path

import pytest


VENDOR = Path(__file__).parent / "vendor"
VIEWS = ("findings", "models", "npu", "integer", "reports", "records", "docs")
SCREENS = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
# moderate by axe's grading, but named in issue 17: checked as strictly as the serious ones
STRICT_RULES = ("heading-order", "region", "landmark-banner-is-top-level", "landmark-no-duplicate-banner",
                "landmark-unique", "page-has-heading-one")


def axe_source() -> str:
    version = json.loads((VENDOR / "VERSIONS.json").read_text())["axe-core"]
    return (VENDOR / f"axe-core@{version}.min.js").read_text(encoding="utf-8")


def show(page, view: str) -> None:
    """Show a view the way a reader does (its nav tab), or through the page's own API when it has one."""
    if page.evaluate("!!(window.npuready && window.npuready.showView)"):
        page.evaluate("v => window.npuready.showView(v)", view)
    else:
        page.locator(f'nav.tabs a[data-view="{view}"]').first.click()
    page.wait_for_function("v => { const s = document.getElementById('view-' + v); return s && !s.hidden; }", arg=view)
    # charts draw asynchronously: scan them drawn
    page.wait_for_function("v => [...document.querySelectorAll('#view-' + v + ' .vega')]"
                           ".every(el => el.querySelector('svg') || el.textContent.trim())", arg=view, timeout=30000)


def violations(page) -> list[dict]:
    """axe's critical and serious findings plus the STRICT_RULES, on the page as shown."""
    if not page.evaluate("!!window.axe"):
        page.evaluate(axe_source())  # evaluated by the test, not loaded by the page (its CSP stays as shipped)
    # the whole page without the hidden views (axe skips hidden content anyway, but walking it costs time)
    result = page.evaluate("() => axe.run({include: [document], "
                           "exclude: [...document.querySelectorAll('section.view[hidden]')]}, "
                           "{resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5], "count": len(v["nodes"])}
            for v in result["violations"] if v["impact"] in ("critical", "serious") or v["id"] in STRICT_RULES]


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_no_serious_accessibility_violation_on_any_view(browser, repo_site, screen):
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    try:
        page.goto((repo_site / "index.html").as_uri())
        page.wait_for_function("document.documentElement.dataset.ready === '1'")
        found = {}
        for view in VIEWS:
            show(page, view)
            bad = violations(page)
            if bad:
                found[view] = bad
        # one document page with wide tables (scroll regions) and its contents
        page.evaluate("location.hash = '#doc=cost-vs-vela'")
        page.wait_for_function("!document.querySelector('article.doc[data-doc=\"cost-vs-vela\"]').hidden")
        bad = violations(page)
        if bad:
            found["doc=cost-vs-vela"] = bad
        assert found == {}, json.dumps(found, indent=1)[:6000]
    finally:
        context.close()


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_no_serious_accessibility_violation_on_any_model_page(browser, repo_site, screen):
    """Every model page the site writes (models/*.html), as drawn and with a node's side panel open."""
    pages = sorted((repo_site / "models").glob("*.html"))
    assert pages, "the repository's site has no model page"
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    found = {}
    try:
        for path in pages:
            page.goto(path.as_uri())
            page.wait_for_function("document.documentElement.dataset.graphReady === '1'", timeout=60000)
            bad = violations(page)
            page.locator("g.gnode[data-unit^='n:']").first.dispatch_event("click")
            page.wait_for_selector("#node-info[data-node]")
            bad += [dict(v, state="panel open") for v in violations(page)]
            if bad:
                found[path.name] = bad
        assert found == {}, json.dumps(found, indent=1)[:6000]
    finally:
        context.close()
