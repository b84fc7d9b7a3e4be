"""Deep links that hold: a number's link from the dialog, Back/Forward, URL state, lazy tabs, no network."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from npuready.site import pointer
from npuready.site.render import INDEX_ASSETS

REPO = Path(__file__).resolve().parents[2]


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.ready === '1'")


def _modal(page) -> dict:
    return {"open": page.evaluate("document.getElementById('raw').open"),
            "exp": page.locator("#raw-exp").inner_text(), "path": page.locator("#raw-path").inner_text()}


def _visible_views(page) -> list[str]:
    return page.eval_on_selector_all("section.view", "ss => ss.filter(s => !s.hidden).map(s => s.dataset.view)")


def _stored(exp: str, path: str):
    return pointer.resolve(json.loads((REPO / "experiments" / exp / "result.json").read_text()), path)


def test_link_from_the_dialog_opens_the_same_number_in_the_same_view(browser, page_and_watch, repo_site):
    page, watch = page_and_watch
    _open(page, (repo_site / "index.html").as_uri() + "#npu")
    button = page.locator("#view-npu button.num").nth(5)
    target = button.evaluate("b => npuready.ref(b)")
    button.click()
    page.locator("dialog#raw").wait_for(state="visible")
    link = page.locator("#raw-link").evaluate("a => a.href")
    assert link == page.url and "view=npu" in link  # opening the number put it in the URL
    page.locator("#raw-link").click()  # copies, does not navigate away or close the dialog
    assert page.url == link and _modal(page)["open"]
    assert page.locator("#raw-status").inner_text().startswith(("link copied", "link: "))

    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        _open(other, link)
        assert _visible_views(other) == ["npu"]
        assert _modal(other) == {"open": True, "exp": target["exp"], "path": target["path"]}
        assert json.loads(other.locator("#raw-value").inner_text()) == _stored(target["exp"], target["path"])
        assert other.locator("#link-error").count() == 0 or not other.locator("#link-error").is_visible()
    finally:
        other.context.close()
    assert watch.errors == [] and watch.network == []


def test_back_closes_the_dialog_and_forward_reopens_it(page_and_watch, repo_site):
    page, watch = page_and_watch
    _open(page, (repo_site / "index.html").as_uri())
    page.locator('nav.tabs a[data-view="integer"]').click()
    page.locator("#view-integer").wait_for(state="visible")
    button = page.locator("#view-integer button.num").first
    target = button.evaluate("b => npuready.ref(b)")
    button.click()
    page.locator("dialog#raw").wait_for(state="visible")
    with_number = page.url

    page.go_back()
    page.wait_for_function("!document.getElementById('raw').open")
    assert _visible_views(page) == ["integer"] and page.url.endswith("#integer")
    page.go_forward()
    page.wait_for_function("document.getElementById('raw').open")
    assert page.url == with_number and _visible_views(page) == ["integer"]
    assert _modal(page) == {"open": True, **target}
    page.go_back()
    page.wait_for_function("!document.getElementById('raw').open")
    page.go_back()  # before the Integer tab: the first view
    page.wait_for_function("!document.getElementById('view-findings').hidden")
    assert _visible_views(page) == ["findings"]

    page.go_forward()
    page.go_forward()
    page.wait_for_function("document.getElementById('raw').open")
    page.locator("#raw-close").click()  # closing is Back: the URL drops the number, the view stays
    page.wait_for_function("!location.hash.includes('path=')")
    assert page.url.endswith("#integer") and _visible_views(page) == ["integer"]
    assert not _modal(page)["open"]
    assert watch.errors == [] and watch.network == []


def test_a_deep_link_opened_directly_closes_to_its_view(page_and_watch, repo_site):
    page, watch = page_and_watch
    _open(page, (repo_site / "index.html").as_uri() + "#view=models&exp=pruning&path=/results")
    assert _visible_views(page) == ["models"] and _modal(page)["open"]
    page.keyboard.press("Escape")
    page.wait_for_function("!document.getElementById('raw').open")
    assert page.url.endswith("#models") and _visible_views(page) == ["models"]
    assert watch.errors == []


def test_filters_live_in_the_url_and_come_back_with_it(page_and_watch, repo_site):
    page, watch = page_and_watch
    _open(page, (repo_site / "index.html").as_uri() + "#records")
    page.locator("#rec-search").fill("vela")
    page.locator("#rec-evidence").select_option("simulated")
    # search.js debounces typing
    page.wait_for_function("() => npuready.getState().ev === 'simulated' && "
                           "document.querySelector('details.record[data-exp=\"probes\"]')?.hidden === true")
    assert page.evaluate("npuready.getState()") == {"view": "records", "q": "vela", "ev": "simulated"}
    shown = page.eval_on_selector_all("details.record", "ds => ds.filter(d => !d.hidden).map(d => d.dataset.exp)")
    assert "cost-vs-vela" in shown and "probes" not in shown
    url = page.url
    _open(page, (repo_site / "index.html").as_uri())
    _open(page, url)
    # search.js debounces typing
    page.wait_for_function("() => npuready.getState().ev === 'simulated' && "
                           "document.querySelector('details.record[data-exp=\"probes\"]')?.hidden === true")
    assert page.locator("#rec-search").input_value() == "vela"
    assert page.eval_on_selector_all("details.record",
                                     "ds => ds.filter(d => !d.hidden).map(d => d.dataset.exp)") == shown
    assert watch.errors == []


def test_api_loads_tabs_and_records_on_demand_only(page_and_watch, repo_site):
    page, watch = page_and_watch
    events = []
    page.expose_function("seen", lambda v: events.append(v))
    page.add_init_script("document.addEventListener('npuready:view', e => window.seen(e.detail.view))")
    _open(page, (repo_site / "index.html").as_uri())
    loaded = [u.split("/site/")[1].split("?")[0] for u in watch.requests if "/site/" in u]
    # no tab, no result, no chart runtime
    assert sorted(loaded) == sorted(["index.html", *(f"assets/{a}" for a in INDEX_ASSETS)])
    assert events == ["findings"]
    record = page.evaluate("npuready.loadRecord('probes')")
    assert record == json.loads((REPO / "experiments" / "probes" / "result.json").read_text())
    page.evaluate("npuready.showView('reports')")
    assert _visible_views(page) == ["reports"] and page.url.endswith("#reports") and events == ["findings", "reports"]
    page.evaluate("npuready.setState({q: 'a b&c'})")
    assert page.evaluate("npuready.getState()") == {"view": "reports", "q": "a b&c"}
    assert not any("vendor/" in u for u in watch.requests)  # the Models tab draws no chart
    page.evaluate("npuready.showView('integer')")
    page.wait_for_function("[...document.querySelectorAll('#view-integer .vega')].every(e => e.querySelector('svg'))")
    assert any("vendor/vega@" in u for u in watch.requests)
    assert watch.errors == [] and watch.network == [] and all(u.startswith("file://") for u in watch.requests)


@pytest.mark.parametrize("link", ["#view=nowhere", "#panel=no-such-experiment", "#view=npu&exp=probes&path=/no/such",
                                  "#doc=NO-SUCH-DOC", "#exp=no-such-experiment"])
def test_bad_links_are_explained_on_the_page_and_request_nothing_missing(page_and_watch, repo_site, link):
    page, watch = page_and_watch
    _open(page, (repo_site / "index.html").as_uri() + link)
    box = page.locator("#link-error")
    box.wait_for(state="visible")
    assert box.inner_text().startswith("This link points to nothing on this page")
    assert _visible_views(page) == ["findings"] and not _modal(page)["open"]
    assert watch.errors == [] and watch.network == []


def test_a_model_pages_number_link_reopens_that_number(browser, page_and_watch, repo_site):
    page, watch = page_and_watch
    _open(page, (repo_site / "models" / "model-report-yolov8n.html").as_uri())
    button = page.locator("#model-summary button.num").first
    target = button.evaluate("b => npuready.ref(b)")
    button.click()
    page.locator("dialog#raw").wait_for(state="visible")
    link = page.locator("#raw-link").evaluate("a => a.href")
    assert link == page.url and "view=" not in link
    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        _open(other, link)
        assert _modal(other) == {"open": True, **target}
        assert other.locator("#link-error").count() == 0
    finally:
        other.context.close()
    page.go_back()
    page.wait_for_function("!document.getElementById('raw').open")
    assert watch.errors == [] and watch.network == []
