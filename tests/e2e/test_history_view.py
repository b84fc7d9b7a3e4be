"""The History view in Chromium: key figures by commit and the two-commit diff from history-data.js;
a page built without history, or where git history was unavailable, says so. No errors, no network."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "history"))
from history_repos import probes_repo  # noqa: E402

from npuready.commands.site import build_all, write_all  # noqa: E402
from npuready.history.publish import HISTORY_SCRIPT, write_history  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "site" / "fixtures"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("history-site")
    shutil.copytree(FIXTURES / "experiments", root / "experiments")
    build, md = build_all(root / "experiments", root / "docs", history=True)
    write_all(build, md, root / "docs", root / "site")
    return root / "site"


@pytest.fixture(scope="module")
def committed_like_site(tmp_path_factory) -> Path:
    """Built the way the committed site is (no --history): no history-data.js written, none named."""
    root = tmp_path_factory.mktemp("no-history-site")
    shutil.copytree(FIXTURES / "experiments", root / "experiments")
    build, md = build_all(root / "experiments", root / "docs")
    write_all(build, md, root / "docs", root / "site")
    return root / "site"


def _open(page, site: Path, state: str):
    page.goto("about:blank")
    page.goto((site / "index.html").as_uri() + "#history")
    page.wait_for_selector(f"#view-history[data-history='{state}']")
    return page


def test_figures_by_commit_and_the_diff_picker(site, tmp_path, page_and_watch):
    page, watch = page_and_watch
    repo, hashes = probes_repo(tmp_path)
    write_history(site, repo)
    page.goto((site / "index.html").as_uri() + "#findings")
    page.wait_for_selector("html[data-ready='1']")
    assert page.get_attribute("#view-history", "data-history") is None  # not loaded before the view is shown
    page.click("nav.tabs a[data-view='history']")
    page.wait_for_selector("#view-history[data-history='drawn']")
    assert page.is_visible("#view-history") and not page.is_visible("#view-findings")
    assert page.inner_text("#history-status") == ("3 commits changed a stored result, 2026-01-01 to 2026-01-04; "
                                                  "2 experiments.")
    rows = page.locator("#history-exp-probes tbody tr")
    assert rows.count() == 2  # newest first: the rerun, then the first run
    assert rows.nth(0).locator("td").all_inner_texts()[:2] == [hashes[2][:7], "2026-01-03"]
    assert rows.nth(0).locator("td.n").all_inner_texts() == ["52", "51", "1"]
    assert rows.nth(1).locator("td.n").all_inner_texts() == ["50", "50", "0"]
    assert page.locator("#history-exp-probes tbody tr:first-child td.moved").count() == 3
    # default pair: the latest commit against the latest earlier one where a key figure differed
    assert page.input_value("#history-b") == "2" and page.input_value("#history-a") == "1"
    diff = lambda: [r.locator("td").all_inner_texts() for r in page.locator("#history-diff-rows tr").all()]  # noqa: E731
    assert diff() == [["mr-x", "all sanity checks pass", "—", "yes"]]
    assert page.inner_text("#history-diff .table-count") == "1 row"  # the rows drawn, not the empty table enhanced
    page.select_option("#history-a", "0")
    assert diff() == [["mr-x", "all sanity checks pass", "—", "yes"], ["probes", "probes", "50", "52"],
                      ["probes", "accepted by onnxruntime", "50", "51"], ["probes", "failed", "0", "1"]]
    assert page.inner_text("#history-diff-count") == "4 key figures differ"
    assert page.inner_text("#history-diff .table-count") == "4 rows"
    regions = page.locator("#history-experiments .table-scroll")
    assert regions.count() == 2 and all(r.get_attribute("tabindex") == "0" and r.get_attribute("role") == "region"
                                        for r in regions.all())
    page.select_option("#history-b", "0")
    assert page.inner_text("#history-diff-count") == "no key figure differs between these commits"
    assert watch.errors == [] and watch.network == []


def test_unavailable_and_absent_history_are_stated(site, tmp_path, page_and_watch):
    page, watch = page_and_watch
    (tmp_path / "archive").mkdir()
    write_history(site, tmp_path / "archive")
    _open(page, site, "unavailable")
    text = page.inner_text("#history-status")
    assert text.startswith("History unavailable when this page was built: ") and "not a git work tree" in text
    assert not page.is_visible("#history-diff")
    (site / HISTORY_SCRIPT).unlink()
    _open(page, site, "absent")
    assert page.inner_text("#history-status").startswith("The history was not built with this page")
    # the one missing file, asked for only because the History view was opened
    assert watch.errors == [f"requestfailed: {(site / HISTORY_SCRIPT).as_uri()}",
                            "console.error: Failed to load resource: net::ERR_FILE_NOT_FOUND"]
    assert watch.network == []


def test_a_site_built_without_history_asks_for_no_history_file(committed_like_site, page_and_watch):
    page, watch = page_and_watch
    site = committed_like_site
    assert not (site / HISTORY_SCRIPT).exists()
    _open(page, site, "not-built")
    assert page.inner_text("#history-status").startswith("The history was not built with this page")
    assert page.title() == "History — npuready workbench"
    assert watch.errors == [] and not [u for u in watch.requests if HISTORY_SCRIPT in u]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_drawn_history_view_passes_axe(site, tmp_path, browser, screen):
    from test_a11y import SCREENS, violations

    repo, _ = probes_repo(tmp_path)
    write_history(site, repo)
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    try:
        _open(page, site, "drawn")
        page.select_option("#history-a", "0")
        bad = violations(page)
        assert bad == [], bad
    finally:
        context.close()


def test_a_skipped_historical_result_is_named_in_the_status(site, tmp_path, page_and_watch):
    """A result.json nested 20,000 deep in one commit: the view draws the others and says which it skipped."""
    from history_repos import commit, git, result

    page, watch = page_and_watch
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "stored", 1, {"experiments/probes/result.json": result("probes", {"n": 1})})
    (repo / "experiments" / "probes" / "result.json").write_text("[" * 20000 + "]" * 20000)
    bad = commit(repo, "deep", 2, {})
    write_history(site, repo)
    _open(page, site, "drawn")
    status = page.inner_text("#history-status")
    assert f"Skipped (unreadable, counted absent): probes at {bad[:7]}: nested more than 64 levels deep" in status
    assert watch.errors == []


def test_accuracy_reads_as_a_fraction_as_on_the_rest_of_the_site(site, tmp_path, page_and_watch):
    """One number format per quantity: History showed a top-1 of 0.8808 as "88.08%" where every other view shows
    0.8808; the table, the diff and the chart caption now use the site's format."""
    from history_repos import commit, git, result

    page, watch = page_and_watch
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")

    def ladder(top1: float) -> dict:
        doc = result("parity-ladder", {})
        doc["results"] = {"tinycnn": {"evidence": "measured", "methods": {"minmax": {
            "accuracy_float": top1, "accuracy_integer": top1 - 0.0012, "output_code_mismatch": 0.0}}}}
        return doc

    commit(repo, "ladder", 1, {"experiments/parity-ladder/result.json": ladder(0.8808)})
    commit(repo, "ladder rerun", 2, {"experiments/parity-ladder/result.json": ladder(0.8812)})
    write_history(site, repo)
    _open(page, site, "drawn")
    cells = page.locator("#history-exp-parity-ladder tbody tr td.n").all_inner_texts()
    assert cells[:2] == ["0.8812", "0.88"] and "0.8808" in page.locator("#history-exp-parity-ladder").inner_text()
    diff = [r.locator("td").all_inner_texts() for r in page.locator("#history-diff-rows tr").all()]
    assert ["parity-ladder", "tinycnn: float top-1", "0.8808", "0.8812"] in diff
    assert "%" not in page.locator("#view-history").inner_text()
    assert watch.errors == [] and watch.network == []
