"""Tables on the built site: titles, focusable scroll regions, sticky headers, numeric sort, CSV of what is shown,
no blank rows, and no sideways scrolling of the page on a phone."""
from __future__ import annotations

import csv
import json
import io

import pytest

from tests.e2e.sitepage import VIEWS, build_repo_site, open_site, results, show

ROW_TEXT = """t => [...t.tBodies].flatMap(b => [...b.rows]).filter(r => !r.hidden)
  .map(r => [...r.cells].map(c => c.textContent.replace(/\\s+/g, ' ').trim()))"""
HEAD_TEXT = "t => [...t.tHead.rows[0].cells].map(c => c.textContent.replace(/\\s+/g, ' ').trim())"
LINT_TABLE = "#panel-lint-corpus details table"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_repo_site(tmp_path_factory.mktemp("tables-site"))


@pytest.mark.parametrize("view", VIEWS)
def test_no_view_scrolls_sideways_at_390_px_even_with_every_section_open(browser, site, view):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    open_site(page, site)
    show(page, view)
    width = "document.documentElement.scrollWidth"
    assert page.evaluate(width) <= 390
    page.evaluate("v => document.querySelectorAll('#view-' + v + ' details').forEach(d => { d.open = true; })", view)
    page.wait_for_timeout(100)
    assert page.evaluate(width) <= 390
    context.close()


def test_the_long_lint_table_keeps_its_header_in_view_while_its_rows_scroll(page_and_watch, site):
    page, watch = page_and_watch
    open_site(page, site)
    show(page, "npu")
    table = page.locator(LINT_TABLE).first
    table.evaluate("t => t.closest('details').open = true")
    assert table.evaluate("t => t.tBodies[0].rows.length") >= 100
    region = table.locator("xpath=..")
    assert region.get_attribute("class").split()[:2] == ["table-scroll", "tall"]
    region.scroll_into_view_if_needed()
    region.evaluate("r => { r.scrollTop = 1500; }")
    page.wait_for_timeout(50)
    state = region.evaluate("""r => { const th = r.querySelector('thead th'), box = r.getBoundingClientRect(),
        h = th.getBoundingClientRect();
      const first = r.querySelector('tbody tr').getBoundingClientRect();
      const at = document.elementFromPoint(h.left + 4, h.top + h.height / 2);
      return {scrolled: r.scrollTop, dy: Math.abs(h.top - box.top), hit: th.contains(at),
              firstGone: first.bottom < box.top}; }""")
    assert state["scrolled"] >= 1000 and state["firstGone"]
    assert state["dy"] <= 1 and state["hit"]
    assert watch.errors == []


def test_csv_download_equals_the_rows_shown_after_sort_and_filter(page_and_watch, site, tmp_path):
    page, watch = page_and_watch
    open_site(page, site)
    show(page, "npu")
    table = page.locator(LINT_TABLE).first
    table.evaluate("t => t.closest('details').open = true")
    errors = table.locator('thead th:has(.col[data-key="errors"]) button.sort')
    errors.click()
    errors.click()
    assert table.locator('thead th:has(.col[data-key="errors"])').get_attribute("aria-sort") == "descending"
    tools = table.locator("xpath=../preceding-sibling::div[contains(@class, 'table-tools')][1]")
    total = table.evaluate("t => t.tBodies[0].rows.length")
    tools.locator("input.table-filter").fill("pytorch-converted")
    shown = table.evaluate(ROW_TEXT)
    assert 0 < len(shown) < total
    assert tools.locator(".table-count").inner_text() == f"{len(shown)} of {total} rows"
    with page.expect_download() as info:
        tools.locator("button.table-csv").click()
    target = tmp_path / "table.csv"
    info.value.save_as(target)
    assert info.value.suggested_filename.startswith("lint-corpus-") and info.value.suggested_filename.endswith(".csv")
    parsed = list(csv.reader(io.StringIO(target.read_text(encoding="utf-8-sig"), newline="")))
    assert parsed == [table.evaluate(HEAD_TEXT), *shown]
    col = parsed[0].index("Lint ERRORs")
    counts = [int(row[col].replace(",", "")) for row in parsed[1:]]
    assert counts == sorted(counts, reverse=True)
    models = results()["lint-corpus"]["results"]["corpus"]["models"]
    assert counts[0] == max(m["errors"] for m in models if "pytorch-converted" in m["model"])
    assert watch.errors == []


def test_scroll_regions_are_keyboard_reachable_and_say_when_they_are_wider(browser, site):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    open_site(page, site)
    show(page, "reports")
    regions = page.locator("#view-reports .table-scroll")
    assert regions.count() >= 1
    for i in range(regions.count()):
        r = regions.nth(i)
        assert (r.get_attribute("role"), r.get_attribute("tabindex")) == ("region", "0")
        assert r.get_attribute("aria-label").endswith("(scrolls)")
    first = regions.first
    assert "overflows" in first.get_attribute("class").split()
    assert first.locator("xpath=preceding-sibling::div[1]//span[contains(@class, 'scroll-hint')]").is_visible()
    first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("r => r.scrollLeft > 0 && r.classList.contains('more-left')", arg=first.element_handle())
    context.close()


def test_generic_columns_show_titles_with_units_and_keep_the_stored_key(page_and_watch, site):
    page, watch = page_and_watch
    open_site(page, site)
    show(page, "npu")
    head = page.locator('#panel-partitions th:has(.col[data-key="transfer_bytes_per_inference"])').first
    assert head.inner_text().replace("\n", " ").split(" ↕")[0] == "CPU↔NPU transfer per inference (bytes)"
    assert head.locator(".col").get_attribute("title") == "stored as transfer_bytes_per_inference"
    raw = page.evaluate("""() => [...document.querySelectorAll('#view-npu .col[data-key]')]
      .filter(c => c.textContent.trim() === c.dataset.key && c.dataset.key.includes('_')).map(c => c.dataset.key)""")
    assert raw == []


def test_no_table_row_is_a_tall_blank_area(page_and_watch, site):
    page, watch = page_and_watch
    open_site(page, site)
    show(page, "npu")
    page.evaluate("document.querySelectorAll('#view-npu details').forEach(d => { d.open = true; })")
    page.wait_for_timeout(100)
    tall = page.evaluate("""() => [...document.querySelectorAll('#view-npu tbody tr')]
      .map(r => [Math.round(r.getBoundingClientRect().height), r.textContent.replace(/\\s+/g, ' ').slice(0, 60)])
      .filter(x => x[0] > 200)""")  # ten lines of text
    assert tall == [], json.dumps(tall)
    # the real model's partition plan was a 689 px high row (35 segment names wrapped in a 95 px column)
    real = page.locator('#panel-partitions .table-scroll:has(td:text-is("light_resnet50")) tbody tr').first
    assert real.evaluate("r => r.getBoundingClientRect().height") < 60
