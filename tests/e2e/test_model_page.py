"""Model pages in Chromium from file://: the YOLOv8n page's graph view, node drill-down, per-layer table,
CSV; the standalone page `npuready report` writes. 0 console errors, 0 network requests."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from npuready.paths import zoo_dir
from npuready.report import ReportRequest, build_report, write_report

REPO = Path(__file__).resolve().parents[2]
YOLO = "model-report-yolov8n"


@pytest.fixture
def site(repo_site: Path) -> Path:
    return repo_site


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.graphReady === '1'")


def test_yolov8n_node_click_fills_the_side_panel_which_follows_the_target(page_and_watch, site):
    page, watch = page_and_watch
    doc = json.loads((REPO / "experiments" / YOLO / "result.json").read_text())
    res = doc["results"]
    nodes = res["graph"]["nodes"]
    conv = next(n for n in nodes if n["op_type"] == "Conv")
    _open(page, (site / "models" / f"{YOLO}.html").as_uri())
    assert page.locator("g.gnode").count() == len(nodes) + len(res["graph"]["inputs"]) + len(res["graph"]["outputs"])
    box = page.locator(f'g.gnode[data-unit="n:{conv["id"]}"]')
    assert box.get_attribute("class") == "gnode cat-npu"
    box.dispatch_event("click")
    page.wait_for_selector(f'#node-info[data-node="{conv["id"]}"][data-target="edge-10"]')
    assert not page.locator("dialog#raw").is_visible()  # a panel, not a dialog over the graph
    paths = lambda: page.eval_on_selector_all("#node-info button.raw", "bs => bs.map(b => b.dataset.path)")  # noqa: E731
    k = lambda t: next(i for i, r in enumerate(res["cost"]["targets"][t]["layers"]) if r["node"] == conv["name"])  # noqa: E731
    assert paths()[:3] == [f"/results/graph/nodes/{conv['id']}",
                           f"/results/partition/targets/edge-10/placements/{conv['id']}",
                           f"/results/cost/targets/edge-10/layers/{k('edge-10')}"]
    cycles = lambda: page.locator("#node-info dt:text-is('cycles') + dd button.num")  # noqa: E731
    assert cycles().get_attribute("data-path") == f"/results/cost/targets/edge-10/layers/{k('edge-10')}/cycles"
    outs = page.locator("#node-info dt").all_inner_texts()
    assert [f"out {o}" for o in conv["outputs"]] == [t for t in outs if t.startswith("out ")]
    page.select_option("#target-select", "ethos-u55-128")
    page.wait_for_selector(f'#node-info[data-node="{conv["id"]}"][data-target="ethos-u55-128"]')
    assert paths()[1:3] == [f"/results/partition/targets/ethos-u55-128/placements/{conv['id']}",
                            f"/results/cost/targets/ethos-u55-128/layers/{k('ethos-u55-128')}"]
    want = res["cost"]["targets"]["ethos-u55-128"]["layers"][k("ethos-u55-128")]["cycles"]
    assert cycles().inner_text() == f"{want:,}"
    page.locator("#node-info h2 button.raw").click()  # raw JSON stays a dialog
    page.locator("dialog#raw").wait_for(state="visible")
    assert page.locator("#raw-exp").inner_text() == YOLO
    assert page.locator("#raw-path").inner_text() == f"/results/graph/nodes/{conv['id']}"
    assert json.loads(page.locator("#raw-json").inner_text()) == conv
    assert watch.errors == [] and watch.network == []


def test_layer_table_sorts_links_to_the_graph_and_downloads_what_is_shown(page_and_watch, site):
    page, watch = page_and_watch
    result = json.loads((REPO / "experiments" / YOLO / "result.json").read_text())["results"]
    layers = result["cost"]["targets"]["edge-10"]["layers"]
    _open(page, (site / "models" / f"{YOLO}.html").as_uri())
    shown = [r for r in layers if r["device"] != "folded"]  # folded nodes hidden by default
    assert page.locator("#layer-table tbody tr").count() == min(200, len(shown))
    assert page.get_attribute('#layer-table th[data-key="cycles"]', "aria-sort") == "descending"  # most cycles first
    top = max(shown, key=lambda r: r["cycles"])  # ties keep the stored order
    assert page.locator("#layer-table tbody tr").first.get_attribute("data-node") == top["node"]
    page.locator('#layer-table th[data-key="cycles"] button').click()
    low = min(shown, key=lambda r: r["cycles"])
    assert page.locator("#layer-table tbody tr").first.get_attribute("data-node") == low["node"]
    page.locator('#layer-table th[data-key="cycles"] button').click()
    first = page.locator("#layer-table tbody tr").first
    assert first.get_attribute("data-node") == top["node"]
    first.locator("button.node-link").click()
    idx = next(i for i, r in enumerate(layers) if r["node"] == top["node"])
    page.wait_for_function(f"document.querySelector('g.gnode[data-unit=\"n:{idx}\"]').classList.contains('selected')")
    assert not page.locator("dialog#raw").is_visible()
    page.locator("#layer-filter").fill("Sigmoid")
    with page.expect_download() as dl:
        page.locator("#layer-csv").click()
    lines = Path(dl.value.path()).read_text().splitlines()
    assert lines[0].startswith("Node,Operator,Runs on,MACs,Cycles (simulated)")
    assert len(lines) - 1 == sum("sigmoid" in (r["node"] + r["op_type"] + r["device"]).lower() for r in shown)
    page.check("#layer-folded")
    assert page.locator("#layer-table tbody tr").count() == sum(
        "sigmoid" in (r["node"] + r["op_type"] + r["device"]).lower() for r in layers)
    assert watch.errors == [] and watch.network == []


def test_standalone_report_page_opens_from_file(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result = build_report(ReportRequest(model=str(zoo_dir() / "tinycnn.onnx"), targets=("edge-10", "ethos-u55-128"),
                                        stages=("lint", "partition", "cost")))
    write_report(result, tmp_path)
    _open(page, (tmp_path / "report.html").as_uri())
    assert page.locator("g.gnode").count() == result["graph"]["node_count"] + 2
    page.select_option("#target-select", "ethos-u55-128")
    page.select_option("#colour-select", "cycles")
    assert page.locator("#layer-table tbody tr").count() == sum(
        r["device"] != "folded" for r in result["cost"]["targets"]["ethos-u55-128"]["layers"])
    assert watch.errors == [] and watch.network == []
    assert all(u.startswith(("file://", "blob:null/")) for u in watch.requests)


def test_report_html_copied_alone_into_an_empty_folder_draws_the_graph(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result = build_report(ReportRequest(model=str(zoo_dir() / "tinycnn.onnx"), targets=("edge-10", "ethos-u55-128"),
                                        stages=("lint", "partition", "cost")))
    write_report(result, tmp_path / "out")
    alone = tmp_path / "attached"
    alone.mkdir()
    (alone / "report.html").write_bytes((tmp_path / "out" / "report.html").read_bytes())
    url = (alone / "report.html").as_uri()
    _open(page, url)
    assert page.locator("g.gnode").count() == result["graph"]["node_count"] + 2
    assert page.locator("#graph-status").inner_text().startswith(f"{result['graph']['node_count'] + 2} boxes")
    assert page.locator("#layer-table tbody tr").count() == sum(
        r["device"] != "folded" for r in result["cost"]["targets"]["edge-10"]["layers"])
    assert "need JavaScript" not in page.locator("main").inner_text()
    assert page.evaluate("getComputedStyle(document.querySelector('.graph-wrap')).display") == "grid"  # styled
    assert watch.errors == [] and [u for u in watch.requests if not u.startswith("blob:")] == [url]


def _luminance(rgb: str) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (float(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def test_cycles_heat_bins_by_quantile_with_its_legend_and_readable_text(page_and_watch, site):
    page, watch = page_and_watch
    _open(page, (site / "models" / f"{YOLO}.html").as_uri())
    page.select_option("#target-select", "ethos-u55-128")
    page.select_option("#colour-select", "cycles")
    assert page.is_visible("#heat-legend") and not page.is_visible("#placement-legend")
    boxes = page.eval_on_selector_all("g.gnode:not(.io)", """gs => gs.map(g => ({c: +g.dataset.cycles,
        fill: getComputedStyle(g.querySelector('rect')).fill,
        text: getComputedStyle(g.querySelector('text')).fill}))""")
    hot = sorted(b["c"] for b in boxes if b["c"] > 0)
    first = {}
    for i, c in enumerate(hot):
        first.setdefault(c, i)
    fills = sorted({b["fill"] for b in boxes if b["c"] > 0}, key=lambda f: min(x["c"] for x in boxes if x["fill"] == f))
    assert len(fills) == 6
    for b in boxes:
        if b["c"] > 0:
            assert fills.index(b["fill"]) == min(5, first[b["c"]] * 6 // len(hot))
    sizes = [sum(b["fill"] == f for b in boxes) for f in fills]
    assert max(sizes) - min(sizes) <= len(hot) // 6  # quantiles: no bin holds most of the graph
    for b in boxes:  # WCAG AA for the label on every fill
        hi, lo = sorted((_luminance(b["fill"]), _luminance(b["text"])), reverse=True)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5
    assert len(page.locator("#heat-legend .heat-bin").all()) == 7
    page.select_option("#colour-select", "placement")
    assert page.is_visible("#placement-legend") and not page.is_visible("#heat-legend")
    assert watch.errors == []


def test_panel_lists_a_nodes_findings_with_severity_and_rule_page(page_and_watch, site):
    page, watch = page_and_watch
    res = json.loads((REPO / "experiments" / YOLO / "result.json").read_text())["results"]
    findings = res["lint"]["targets"]["edge-10"]["findings"]
    ids = {n["name"]: n["id"] for n in res["graph"]["nodes"]}
    name = next(f["node"] for f in findings if f["node"] in ids)
    mine = [f for f in findings if f["node"] == name]
    _open(page, (site / "models" / f"{YOLO}.html").as_uri())
    page.locator(f'g.gnode[data-unit="n:{ids[name]}"]').dispatch_event("click")
    page.wait_for_selector(f'#node-info[data-node="{ids[name]}"]')
    items = page.locator("#node-info li.np-finding")
    assert items.count() == len(mine)
    for k, f in enumerate(mine):
        assert items.nth(k).locator("span.sev").inner_text() == f["severity"]
        assert items.nth(k).locator("a.rule").get_attribute("href") == f"../index.html#doc=rules/{f['rule']}"
        assert items.nth(k).locator("p.np-message").inner_text() == f["message"]
    items.first.locator("a.rule").click()
    page.wait_for_url(f"**/index.html#doc=rules/{mine[0]['rule']}")
    page.wait_for_function("r => { const a = document.querySelector('article.doc[data-doc=\"rules/' + r + '\"]'); "
                           "return a && !a.hidden; }", arg=mine[0]["rule"])
    assert watch.errors == [] and watch.network == []


def test_the_page_lists_findings_by_rule_crossings_with_bytes_and_checks_for_the_target_shown(page_and_watch, site):
    page, watch = page_and_watch
    res = json.loads((REPO / "experiments" / YOLO / "result.json").read_text())["results"]
    _open(page, (site / "models" / f"{YOLO}.html").as_uri())
    for target in res["model"]["targets"]:
        page.select_option("#target-select", target)
        page.wait_for_function("t => document.querySelector('#model-doc h2').textContent.endsWith(t)", arg=target)
        findings = res["lint"]["targets"][target]["findings"]
        rules = sorted({f["rule"] for f in findings})
        groups = page.eval_on_selector_all("#model-doc details.doc-rule", "ds => ds.map(d => d.dataset.rule)")
        assert sorted(groups) == rules
        for rule in rules:
            n = sum(f["rule"] == rule for f in findings)
            summary = page.inner_text(f'#model-doc details[data-rule="{rule}"] summary')
            assert summary.endswith(f": {n} finding" + ("s" if n != 1 else "")), summary
            href = page.get_attribute(f'#model-doc details[data-rule="{rule}"] a.rule', "href")
            assert href == f"../index.html#doc=rules/{rule}"  # the rule's page in the site's docs
        crossings = res["partition"]["targets"][target]["crossings"]
        shown = page.eval_on_selector_all("table.doc-crossings tbody td:last-child button.num",
                                          "bs => bs.map(b => [b.dataset.path, b.textContent])")
        base = f"/results/partition/targets/{target}/crossings"
        assert shown == [[f"{base}/{i}/tensor/bytes", f"{c['tensor']['bytes']:,}"] for i, c in enumerate(crossings)]
        checks = page.locator("#model-doc .doc-checks li").all_inner_texts()
        assert len(checks) == len(res["checks"]["targets"][target]) + 2  # macs, node_count + per target
        assert all(line.startswith("pass ") for line in checks) == res["checks"]["all_ok"]
    first = next(f for f in res["lint"]["targets"][target]["findings"] if f["node"])
    page.locator(f'#model-doc details[data-rule="{first["rule"]}"] summary').click()
    page.locator(f'#model-doc details[data-rule="{first["rule"]}"] button.linklike').first.click()
    node = next(n for n in res["graph"]["nodes"] if n["name"] == first["node"])
    page.wait_for_selector(f'#node-info[data-node="{node["id"]}"]')
    assert watch.errors == [] and watch.network == []
