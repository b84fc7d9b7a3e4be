"""Search over every stored value on the built site: by value, by name, matching paths open their JSON, state in the
URL."""
from __future__ import annotations

import json
import re

import pytest

from npuready.site.fmt import format_number
from npuready.site.search_index import value_text
from npuready.site.modelindex import light_ids
from npuready.site.source import load_experiments
from tests.e2e.sitepage import REPO, build_repo_site, open_site, results, show

HITS = "#search-results .search-hits > li"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_repo_site(tmp_path_factory.mktemp("search-site"))


def _leaves(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + "/" + str(k).replace("~", "~0").replace("/", "~1"))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, f"{path}/{i}")
    else:
        yield path, node


def _hidden_number(site, stored):
    """A stored float that no view shows (neither as stored nor as formatted) and that occurs once in all results;
    taken from a record the page carries whole (not one of the heavy results it carries an excerpt of)."""
    pages = [site / "index.html", *sorted((site / "views").glob("*.js"))]  # views/: tabs loaded on demand, if any
    shown = re.sub(r"<script\b[^>]*application/json.*?</script>", "",
                   "".join(p.read_text(encoding="utf-8") for p in pages), flags=re.S)
    everything = json.dumps(stored)
    light = light_ids(load_experiments(REPO / "experiments"))
    for exp_id in sorted(set(stored) - light):
        for path, value in _leaves(stored[exp_id]):
            text = repr(value)
            if (isinstance(value, float) and len(text) >= 8 and path.startswith("/results/") and text not in shown
                    and format_number(value) not in shown and everything.count(text) == 1):
                return exp_id, path, text
    raise AssertionError("no stored number is hidden from the page")


def _search(page, query):
    page.locator("#rec-search").fill(query)
    page.wait_for_function("q => { const b = document.getElementById('search-results');"
                           " return b && b.querySelector('.search-hits') && "
                           "b.querySelector('.search-hits').getAttribute('aria-label') === "
                           "'records containing ' + q; }",
                           arg=query)
    return [li.get_attribute("data-exp") for li in page.locator(HITS).all()]


def test_a_number_stored_only_inside_a_result_finds_its_record_and_opens_its_path(page_and_watch, site):
    page, watch = page_and_watch
    stored = results()
    exp_id, path, text = _hidden_number(site, stored)
    open_site(page, site)
    show(page, "records")
    assert _search(page, text) == [exp_id]
    hit = page.locator(f"{HITS} button.search-path")
    assert [b.get_attribute("data-path") for b in hit.all()] == [path]
    assert page.locator(f"{HITS} .search-text").first.inner_text().split(" ")[0] == text
    hit.first.click()
    page.locator("dialog#raw").wait_for(state="visible")
    assert (page.locator("#raw-exp").inner_text(), page.locator("#raw-path").inner_text()) == (exp_id, path)
    assert page.locator("#raw-value").inner_text() == text
    assert watch.errors == [] and watch.network == []


def test_a_model_name_finds_every_record_that_stores_it_anywhere(page_and_watch, site):
    page, watch = page_and_watch
    stored = results()
    want = sorted(i for i, doc in stored.items() if "resnet20" in json.dumps(doc, ensure_ascii=False).lower())
    open_site(page, site)
    show(page, "records")
    assert _search(page, "resnet20") == want
    assert page.locator("#rec-count").inner_text() == f"{len(want)} of {len(stored)} records"
    visible = page.eval_on_selector_all("details.record", "ds => ds.filter(d => !d.hidden).map(d => d.dataset.exp)")
    assert visible == want
    for li in page.locator(HITS).all():  # every listed path holds the name, in a value or in a key
        for b in li.locator("button.search-path").all():
            exp_id, path = b.get_attribute("data-exp"), b.get_attribute("data-path")
            holder = dict(_leaves(stored[exp_id]))
            assert "resnet20" in (str(holder.get(path, "")) + path).lower()
    assert watch.errors == []


def test_a_number_as_shown_with_thousands_separators_is_found(page_and_watch, site):
    page, watch = page_and_watch
    stored = results()
    value = next(v for _p, v in _leaves(stored["cost-per-target"]["results"]) if isinstance(v, int) and v >= 10_000)
    shown = format_number(value)  # e.g. 1,234,567 on the page; stored as 1234567
    want = sorted(i for i, doc in stored.items()
                  if any(str(value) in value_text(v) or str(value) in p for p, v in _leaves(doc)))
    open_site(page, site)
    show(page, "records")
    assert "," in shown and "cost-per-target" in want
    assert _search(page, shown) == want
    assert watch.errors == []


def test_query_and_filters_live_in_the_url_and_come_back_from_it(page_and_watch, site):
    page, watch = page_and_watch
    open_site(page, site)
    show(page, "records")
    page.locator("#rec-view").select_option("npu")
    first = _search(page, "edge-10")
    assert first and all(results()[i]["view"] == "npu" for i in first)
    page.wait_for_function("location.hash.includes('q=edge-10') && location.hash.includes('in=npu')")
    link = page.url
    again = page.context.new_page()
    open_site(again, site, "#" + link.split("#", 1)[1])
    again.locator(HITS).first.wait_for()
    assert again.locator("#rec-search").input_value() == "edge-10"
    assert again.locator("#rec-view").input_value() == "npu"
    assert [li.get_attribute("data-exp") for li in again.locator(HITS).all()] == first
    assert watch.errors == []


def test_a_hit_in_a_record_the_page_carries_only_in_part_leads_to_its_model_page(page_and_watch, site):
    page, watch = page_and_watch
    stored = results()["model-report-yolov8n"]
    everything = json.dumps(results())
    path, text = next((p, repr(v)) for p, v in _leaves(stored)
                      if p.startswith("/results/cost/targets/") and isinstance(v, float) and len(repr(v)) >= 8
                      and everything.count(repr(v)) == 1)
    open_site(page, site)
    show(page, "records")
    assert _search(page, text) == ["model-report-yolov8n"]
    hit = page.locator(f"{HITS} button.search-path").first
    assert hit.get_attribute("data-path") == path
    hit.click()
    note = page.locator(f"{HITS} .search-text a")
    note.wait_for()
    assert page.locator(f"{HITS} .search-text").first.inner_text().startswith(
        "this page carries an excerpt of this record")
    assert not page.locator("dialog#raw").is_visible()
    note.click()
    page.wait_for_url("**/models/model-report-yolov8n.html#*")
    page.locator("dialog#raw").wait_for(state="visible")
    assert page.locator("#raw-path").inner_text() == path
    assert page.locator("#raw-value").inner_text() == text
    assert watch.errors == [] and watch.network == []
