"""The sensitivity view and the graph view's sensitivity overlay in Chromium, from file:// (issue 27, done-when 3):
the mixed-precision panel draws its gain-vs-cycles chart and marks the chosen layers; the model page of the same
ONNX file colours each quantised layer by its stored gain, outlines the layers --keep-float auto kept, and its
legend's figure opens the stored record. 0 console errors, 0 network requests."""
from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_model_page import _luminance

REPO = Path(__file__).resolve().parents[2]
MP, PAGE = "mixed-precision", "model-report-mobilenetv2-050"
BINS = ["rgb(218, 218, 235)", "rgb(188, 189, 220)", "rgb(158, 154, 200)", "rgb(117, 107, 177)",
        "rgb(84, 39, 143)"]  # assets/sensitivity.js, lightest first


def _stored(exp: str) -> dict:
    return json.loads((REPO / "experiments" / exp / "result.json").read_text())["results"]


def _section() -> tuple[str, dict]:
    sha = _stored(PAGE)["model"]["sha256"]
    return next((k, v) for k, v in _stored(MP).items() if isinstance(v, dict) and v.get("model_sha256") == sha)


def test_the_panel_draws_the_gain_chart_and_marks_the_chosen_layers(page_and_watch, repo_site):
    page, watch = page_and_watch
    name, sec = _section()
    page.goto((repo_site / "index.html").as_uri() + "#integer")
    panel = page.locator(f"#panel-{MP}")
    panel.wait_for(state="attached")
    panel.locator("figure.chart svg, figure.chart canvas").first.wait_for(state="attached", timeout=20000)
    kept = {k["name"] for k in sec["keep_float"]["kept"]}
    ranked = panel.locator("details table.data").first
    names = ranked.locator("tbody tr td:nth-child(2)").all_text_contents()
    assert names == [r["name"] for r in sec["sensitivity"]["rows"]]  # the stored ranking, in order
    marked = ranked.locator("tbody tr:has(b.kept-float) td:nth-child(2)").all_text_contents()
    assert set(marked) == kept and len(marked) == len(kept)
    assert watch.errors == [] and watch.network == []


def test_the_model_page_overlays_each_layers_gain_and_outlines_the_kept_ones(page_and_watch, repo_site):
    page, watch = page_and_watch
    name, sec = _section()
    res = _stored(PAGE)
    page.goto((repo_site / "models" / f"{PAGE}.html").as_uri())
    page.wait_for_function("document.documentElement.dataset.graphReady === '1'")
    assert page.locator("#colour-select option[value=sensitivity]").count() == 1
    page.select_option("#colour-select", "sensitivity")
    assert page.is_visible("#sens-legend") and not page.is_visible("#placement-legend")
    assert not page.is_visible("#heat-legend")
    gain = {r["name"]: r["gain_float"] for r in sec["sensitivity"]["rows"]}
    kept = {k["name"] for k in sec["keep_float"]["kept"]}
    boxes = page.eval_on_selector_all("g.gnode:not(.io)", """gs => gs.map(g => ({unit: g.dataset.unit,
        kept: g.classList.contains('kept-float'), fill: getComputedStyle(g.querySelector('rect')).fill,
        text: getComputedStyle(g.querySelector('text')).fill}))""")
    by_name = {res["graph"]["nodes"][int(b["unit"][2:])]["name"]: b for b in boxes}
    assert {n for n, b in by_name.items() if b["kept"]} == kept
    assert set(gain) <= set(by_name)  # every layer of the table is a node of the page
    positive = sorted({g for g in gain.values() if g > 0})
    fills = {g: {by_name[n]["fill"] for n in gain if gain[n] == g} for g in positive}
    assert all(len(f) == 1 for f in fills.values())  # one colour per gain
    bins = [next(iter(fills[g])) for g in positive]  # the fills in order of gain: bins never go down
    rank = [BINS.index(f) for f in bins]
    assert rank == sorted(rank) and len(set(rank)) > 1
    grey = {by_name[n]["fill"] for n in gain if gain[n] <= 0}
    other = {b["fill"] for n, b in by_name.items() if n not in gain}
    assert grey == {"rgb(244, 244, 244)"} and other == {"rgb(255, 255, 255)"}
    for b in boxes:  # WCAG AA for the label on every fill
        hi, lo = sorted((_luminance(b["fill"]), _luminance(b["text"])), reverse=True)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5
    legend_num = page.locator("#sens-legend button.num")
    assert legend_num.inner_text() == str(sec["sensitivity"]["images"])
    legend_num.click()
    page.locator("dialog#raw").wait_for(state="visible")
    assert page.locator("#raw-exp").inner_text() == MP
    assert page.locator("#raw-path").inner_text() == f"/results/{name}/sensitivity/images"
    page.keyboard.press("Escape")
    page.select_option("#colour-select", "placement")
    assert page.is_visible("#placement-legend") and not page.is_visible("#sens-legend")
    assert page.locator("g.gnode.kept-float").count() == 0
    assert watch.errors == [] and watch.network == []


def test_a_model_page_without_sensitivity_data_offers_no_overlay(page_and_watch, repo_site):
    page, watch = page_and_watch
    page.goto((repo_site / "models" / "model-report-yolov8n.html").as_uri())
    page.wait_for_function("document.documentElement.dataset.graphReady === '1'")
    assert page.locator("#colour-select option[value=sensitivity]").count() == 0
    assert page.locator("#sens-legend").count() == 0
    assert watch.errors == []
