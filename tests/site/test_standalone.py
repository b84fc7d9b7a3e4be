"""`npuready report`'s standalone page: report.html + the assets it loads, the report JSON embedded at the root."""
from __future__ import annotations

import json
import re

from npuready.site.modelpage import PAGE_ASSETS, asset
from npuready.site.standalone import standalone_files, write_standalone

REPORT = {"model": {"label": "tiny <b>", "targets": ["edge-10"]}, "graph": {"node_count": 0, "nodes": [], "edges": []}}


def test_standalone_files_are_the_page_and_its_assets():
    files = standalone_files(REPORT)
    assert sorted(files) == ["assets/drilldown.js", "assets/modelview.js", "assets/site.css", "assets/site.js", "report.html"]
    assert all(files[f"assets/{n}"] == asset(n) for n in PAGE_ASSETS)
    page = files["report.html"].decode()
    assert 'data-exp="report" data-root=""' in page
    assert "<title>Model report: tiny &lt;b&gt; — npuready model report</title>" in page
    payload = re.search(r'class="exp-data" data-exp="report">(.*?)</script>', page, re.S).group(1)
    assert json.loads(payload) == REPORT and "<b>" not in payload
    assert 'src="assets/site.js?v=' in page and 'src="assets/modelview.js?v=' in page
    assert page.index('src="assets/site.js?v=') < page.index('src="assets/drilldown.js?v=') < page.index('src="assets/modelview.js?v=')


def test_write_standalone_writes_beside_the_json(tmp_path):
    page = write_standalone(REPORT, tmp_path / "out")
    assert page == tmp_path / "out" / "report.html"
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file()) == [
        "assets/drilldown.js", "assets/modelview.js", "assets/site.css", "assets/site.js", "report.html"]
