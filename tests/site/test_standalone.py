"""`npuready report`'s page: by default one self-contained report.html (styles, scripts, dagre and the report JSON
inlined, each inline script allowed by its hash in the CSP); --no-inline: the page plus the assets it loads."""
from __future__ import annotations

import json
import re

from npuready.site.modelpage import DAGRE, PAGE_ASSETS, PAGE_SCRIPTS, asset, csp_hash
from npuready.site.standalone import OVERHEAD_BUDGET_BYTES, standalone_files, write_standalone

REPORT = {"model": {"label": "tiny <b>", "targets": ["edge-10"]}, "graph": {"node_count": 0, "nodes": [], "edges": []}}


def _payload(page: str) -> str:
    return re.search(r'class="exp-data" data-exp="report">(.*?)</script>', page, re.S).group(1)


def test_default_page_is_one_file_with_everything_inlined():
    files = standalone_files(REPORT)
    assert sorted(files) == ["report.html"]
    page = files["report.html"].decode()
    assert 'data-exp="report" data-root=""' in page
    assert "<title>Model report: tiny &lt;b&gt; — npuready model report</title>" in page
    assert json.loads(_payload(page)) == REPORT and "<b>" not in _payload(page)
    assert not re.search(r"""(src|href)=["']?[^"'#]*assets/""", page) and "<link" not in page
    assert f"<style>{asset('site.css').decode()}</style>" in page
    inline = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert inline == [asset(n).decode() for n in PAGE_SCRIPTS]
    dagre = re.search(r'<script type="text/plain" id="dagre-src">(.*?)</script>', page, re.S)
    assert dagre.group(1) == asset(DAGRE).decode()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    script_src = next(d for d in csp.split("; ") if d.startswith("script-src "))
    assert script_src == "script-src " + " ".join(csp_hash(s) for s in inline) + " 'unsafe-eval' blob:"
    assert "'unsafe-inline'" not in script_src and "file:" not in csp


def test_needs_javascript_only_inside_noscript():
    page = standalone_files(REPORT)["report.html"].decode()
    assert page.count("need JavaScript") == 1
    assert re.search(r"<noscript>[^<]*<p[^>]*>[^<]*need JavaScript[^<]*</p></noscript>", page)
    assert '<p id="graph-status" class="dim" aria-live="polite"></p>' in page


def test_page_keeps_to_its_size_budget():
    page = standalone_files(REPORT)["report.html"].decode()
    assert len(page.encode()) - len(_payload(page).encode()) <= OVERHEAD_BUDGET_BYTES


def test_no_inline_is_the_page_and_its_assets():
    files = standalone_files(REPORT, inline=False)
    assert sorted(files) == sorted(["report.html", *(f"assets/{n}" for n in PAGE_ASSETS)])
    assert PAGE_ASSETS == ("site.css", "site.js", "drilldown.js", "layertable.js", "nodepanel.js", "graphtools.js",
                           "graphnav.js", "heatscale.js", "reportdoc.js", "sensitivity.js", "modelview.js")
    assert all(files[f"assets/{n}"] == asset(n) for n in PAGE_ASSETS)
    page = files["report.html"].decode()
    assert json.loads(_payload(page)) == REPORT
    assert re.findall(r'src="assets/([^"?]+)\?v=', page) == list(PAGE_SCRIPTS)
    assert "<script>" not in page


def test_write_standalone_writes_beside_the_json(tmp_path):
    page = write_standalone(REPORT, tmp_path / "out")
    assert page == tmp_path / "out" / "report.html"
    assert [p.name for p in (tmp_path / "out").rglob("*")] == ["report.html"]
    write_standalone(REPORT, tmp_path / "site", inline=False)
    written = sorted(p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert written == sorted(["report.html", *(f"assets/{n}" for n in PAGE_ASSETS)])
