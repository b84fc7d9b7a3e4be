"""Benchmarks for the static site. Run with `make bench`.

Targets (issue 7): `npuready site` from stored JSON < 10 s; first render of site/index.html in headless
Chromium < 1 s. Page weight (index.html, assets, vendored bundles) is reported in extra_info and printed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from npuready.commands.site import build_all
from npuready.paths import docs_dir, experiments_dir, site_dir
from npuready.site.browser import chromium_path, launch
from npuready.site.render import write_site

BUILD_TARGET_S = 10.0
RENDER_TARGET_S = 1.0


def page_weight(site: Path) -> dict[str, int]:
    index = (site / "index.html").stat().st_size
    assets = sum(p.stat().st_size for p in (site / "assets").glob("*") if p.is_file())
    vendor = sum(p.stat().st_size for p in (site / "vendor").glob("*.js"))
    return {"index_html": index, "assets": assets, "vendor_js": vendor, "total": index + assets + vendor}


def test_site_build_from_stored_json(benchmark, tmp_path):
    def build() -> int:
        site, _md = build_all(experiments_dir(), docs_dir())
        write_site(site, tmp_path / "site")
        return site.figures

    figures = benchmark.pedantic(build, rounds=3, warmup_rounds=1)
    benchmark.extra_info["drillable_numbers"] = figures
    assert figures > 0
    assert benchmark.stats.stats.median < BUILD_TARGET_S


def test_first_render_in_headless_chromium(benchmark):
    if chromium_path() is None:
        pytest.skip("no system Chromium (python tools/ensure_browser.py)")
    from playwright.sync_api import sync_playwright

    url = (site_dir() / "index.html").as_uri()
    weight = page_weight(site_dir())
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800})

        def first_render() -> float:
            page.goto("about:blank")
            page.goto(url, wait_until="load")
            page.wait_for_function("document.documentElement.dataset.ready === '1'")
            return page.evaluate("performance.getEntriesByType('paint')"
                                 ".filter(e => e.name === 'first-contentful-paint').map(e => e.startTime)[0] || 0")

        fcp_ms = benchmark.pedantic(first_render, rounds=5, warmup_rounds=1)
        browser.close()
    benchmark.extra_info.update({"first_contentful_paint_ms": round(fcp_ms, 1), **{f"bytes_{k}": v for k, v in weight.items()}})
    print(f"\npage weight: " + ", ".join(f"{k} {v / 1024:.0f} KiB" for k, v in weight.items())
          + f"; first contentful paint {fcp_ms:.0f} ms")
    assert benchmark.stats.stats.median < RENDER_TARGET_S
