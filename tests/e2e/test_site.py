"""The built site in a real browser: every view, drill-downs equal the JSON, no errors, no network."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from npuready.commands.site import build_all, write_all
from npuready.site import pointer
from npuready.site.fmt import format_number

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "site" / "fixtures"
VIEWS = ("findings", "models", "npu", "integer", "reports", "records", "docs")


def _results(exp_root: Path) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text(encoding="utf-8")) for p in exp_root.glob("*/result.json")}


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory) -> Path:
    """Fixture experiments (incl. <script>/<img onerror> strings) + the real lint-corpus, built to a temp dir."""
    root = tmp_path_factory.mktemp("site")
    shutil.copytree(FIXTURES / "experiments", root / "experiments")
    shutil.copytree(FIXTURES / "known", root / "experiments", dirs_exist_ok=True)
    shutil.copytree(REPO / "experiments" / "lint-corpus", root / "experiments" / "lint-corpus")
    shutil.copytree(FIXTURES / "docs", root / "docs")
    build, md = build_all(root / "experiments", root / "docs")
    write_all(build, md, root / "docs", root / "site")
    return root


def _open(page, site: Path, fragment: str = "") -> None:
    page.goto((site / "index.html").as_uri() + fragment)
    page.wait_for_function("document.documentElement.dataset.ready === '1'")


def _check_drilldown(page, button, results) -> None:
    target = button.evaluate("b => npuready.ref(b)")
    exp, path = target["exp"], target["path"]
    value = pointer.resolve(results[exp], path)
    assert button.inner_text().split("\u2009")[0] == format_number(value,
                                                                   pct=button.get_attribute("data-scale") == "100")
    button.click()
    dialog = page.locator("dialog#raw")
    dialog.wait_for(state="visible")
    assert page.locator("#raw-exp").inner_text() == exp
    assert page.locator("#raw-path").inner_text() == path
    assert json.loads(page.locator("#raw-value").inner_text()) == value
    page.locator("#raw-close").click()
    dialog.wait_for(state="hidden")


@pytest.mark.parametrize("site_name", ["repo", "fixtures"])
def test_every_view_shows_alone_without_errors_or_network(page_and_watch, repo_site, fixture_site, site_name):
    page, watch = page_and_watch
    site = repo_site if site_name == "repo" else fixture_site / "site"
    _open(page, site)
    assert page.locator("#view-findings").is_visible()
    for view in VIEWS:
        page.evaluate(f"location.hash = '#{view}'")
        page.locator(f"#view-{view}").wait_for(state="visible")
        hidden = [v for v in VIEWS if v != view and page.locator(f"#view-{v}").is_visible()]
        assert hidden == [], f"#{view}: other views visible {hidden}"
        assert page.locator(f'nav.tabs a[data-view="{view}"]').get_attribute("aria-current") == "page"
        page.wait_for_function(f"[...document.querySelectorAll('#view-{view} .vega')]"
                               ".every(e => e.querySelector('svg'))")
    charts = page.locator(".vega")
    if site_name == "fixtures":
        # one chart per hand view that draws one; the real lint-corpus result in the fixture tree draws as
        # many charts as its stored data warrants, so it is not counted here
        drawn = page.eval_on_selector_all('.vega:not([data-exp="lint-corpus"])', "es => es.map(e => e.dataset.exp)")
        assert sorted(drawn) == ["activation-swap", "cost-per-target", "mixed-precision", "parity-ladder", "pruning",
                                "ptq-methods"]
    assert page.locator(".vega svg").count() == charts.count()
    assert watch.errors == []
    assert watch.network == [] and watch.requests and all(u.startswith("file://") for u in watch.requests)
    assert watch.dialogs == []


def test_first_screen_states_findings_with_drillable_numbers(page_and_watch, repo_site):
    page, watch = page_and_watch
    _open(page, repo_site)
    first = page.locator("#view-findings article.finding button.num")
    assert first.count() >= 3
    assert first.first.is_visible()
    assert page.locator("#view-findings h1").inner_text() == "What the stored experiments found"
    _check_drilldown(page, first.first, _results(REPO / "experiments"))
    assert watch.errors == []


def test_drilldowns_in_every_view_equal_the_stored_json(page_and_watch, repo_site):
    page, watch = page_and_watch
    results = _results(REPO / "experiments")
    _open(page, repo_site)
    checked = 0
    for view in VIEWS:
        page.evaluate(f"location.hash = '#{view}'")
        if view == "records":
            page.locator("details.record").first.evaluate("d => d.open = true")
        buttons = page.locator(f"#view-{view} button.num:visible")
        n = buttons.count()
        for i in sorted({0, n // 2, n - 1}) if n else []:
            _check_drilldown(page, buttons.nth(i), results)
            checked += 1
    assert checked >= 6
    assert watch.errors == [] and watch.network == []


def test_deep_link_opens_the_record_and_the_number(page_and_watch, repo_site):
    page, watch = page_and_watch
    path = "/results/corpus/summary/blocked"
    _open(page, repo_site, f"#exp=lint-corpus&path={path}")
    assert page.locator("#view-records").is_visible()
    assert page.locator("#record-lint-corpus").get_attribute("open") is not None
    page.locator("dialog#raw").wait_for(state="visible")
    stored = pointer.resolve(_results(REPO / "experiments")["lint-corpus"], path)
    assert json.loads(page.locator("#raw-value").inner_text()) == stored
    assert page.locator("#raw-json mark").count() >= 1
    assert '"blocked": ' + json.dumps(stored) in page.locator("#raw-json mark").first.inner_text()
    assert watch.errors == []


@pytest.mark.parametrize("link", ["#exp=no-such-experiment&path=/results", "#exp=lint-corpus&path=/no/such/pointer",
                                  "#exp=%E0%A4%A"])
def test_a_bad_deep_link_is_explained_on_the_page(page_and_watch, repo_site, link):
    page, watch = page_and_watch
    _open(page, repo_site, link)
    box = page.locator("#link-error")
    box.wait_for(state="visible")
    assert box.inner_text().startswith("This link points to nothing on this page")
    assert page.locator("#view-findings").is_visible()
    assert watch.errors == []


def test_raw_record_downloads_as_the_stored_json(page_and_watch, repo_site, tmp_path):
    page, watch = page_and_watch
    _open(page, repo_site, "#exp=lint-corpus&path=/results/setup")
    page.locator("dialog#raw").wait_for(state="visible")
    with page.expect_download() as info:
        page.locator("#raw-download").click()
    target = tmp_path / "record.json"
    info.value.save_as(target)
    assert info.value.suggested_filename == "lint-corpus.results.setup.json"
    assert json.loads(target.read_text()) == _results(REPO / "experiments")["lint-corpus"]["results"]["setup"]
    page.locator("#raw-whole").check()
    assert json.loads(page.locator("#raw-json").inner_text()) == _results(REPO / "experiments")["lint-corpus"]
    assert watch.errors == [] and watch.network == []


def test_records_search_and_filters(page_and_watch, fixture_site):
    page, watch = page_and_watch
    _open(page, fixture_site / "site", "#records")
    records = page.locator("details.record")
    total = records.count()

    def shown(expected):  # search.js debounces typing and loads its index once: wait for the list to settle
        page.wait_for_function(
            "want => JSON.stringify([...document.querySelectorAll('details.record')].filter(d => !d.hidden)"
            ".map(d => d.dataset.exp).sort()) === JSON.stringify(want)", arg=sorted(expected), timeout=10000)

    page.locator("#rec-search").fill("accuracies")
    shown(["toy-models"])
    page.locator("#rec-search").fill("")
    page.locator("#rec-evidence").select_option("simulated")
    results = _results(fixture_site / "experiments")
    simulated = sorted(i for i, d in results.items()
                       if any(s["evidence"] == "simulated" for s in d["results"].values()))
    assert len(simulated) >= 2
    shown(simulated)
    page.locator("#rec-view").select_option("models")
    shown([i for i in simulated if results[i]["view"] == "models"])
    page.locator("#rec-view").select_option("")
    page.locator("#rec-search").fill("no-such-experiment")
    shown([])
    assert page.locator("#rec-none").is_visible()
    page.locator("#rec-search").fill("")
    page.locator("#rec-evidence").select_option("")
    shown(list(results))
    assert records.count() == total
    assert watch.errors == []


def test_script_and_img_onerror_strings_render_as_text(page_and_watch, fixture_site):
    page, watch = page_and_watch
    _open(page, fixture_site / "site", "#exp=xss-probe")
    body = page.locator("#record-xss-probe").inner_text()
    assert "<script>alert('title')</script>" in body
    assert "<img src=x onerror=alert('node')>" in body
    assert page.locator("img").count() == 0
    assert page.evaluate("document.querySelectorAll('script:not([src]):not([type=\"application/json\"])').length") == 0
    page.evaluate("location.hash = '#doc=NOTES'")
    assert "<script>alert('doc')</script>" in page.locator('article.doc[data-doc="NOTES"]').inner_text()
    _open(page, fixture_site / "site", "#exp=xss-probe&path=/results/evil/model")
    assert json.loads(page.locator("#raw-value").inner_text()) == "</script><script>alert('model')</script>"
    assert watch.dialogs == [] and watch.errors == []


def test_each_tab_and_document_has_its_own_title(page_and_watch, fixture_site):
    from npuready.site.tabs import TABS

    page, watch = page_and_watch
    _open(page, fixture_site / "site")
    seen = set()
    for name, tab in TABS.items():
        page.evaluate("v => window.npuready.showView(v)", name)
        page.wait_for_function("t => document.title === t", arg=f"{tab.label} — npuready workbench")
        seen.add(page.title())
    assert len(seen) == len(TABS)
    doc = page.locator("article.doc").first
    name = doc.get_attribute("data-doc")
    page.evaluate("n => { location.hash = '#doc=' + n; }", name)
    heading = doc.locator("h2").first.text_content().strip()
    page.wait_for_function("t => document.title === t", arg=f"{heading} — Docs — npuready workbench")
    assert watch.errors == []
