"""The model page's graph view in Chromium: names that are Object.prototype keys, the node side panel and the
target switcher, search, collapse, SVG export. Reports built here from small ONNX graphs and the zoo."""
from __future__ import annotations

from pathlib import Path

import pytest

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from npuready.report import ReportRequest, build_report, write_report

PROTO_NAMES = ("constructor", "__proto__", "toString")


def _convs(path: Path, names: tuple[str, ...], channels: int = 10) -> Path:
    """Conv chain, 10 output channels each (R004 on edge-10's 64-column array: one WARN per node)."""
    rng = np.random.default_rng(0)
    inits, nodes, prev, c_in = [], [], "x", 3
    for i, name in enumerate(names):
        w = f"w{i}"
        inits.append(numpy_helper.from_array(rng.standard_normal((channels, c_in, 3, 3)).astype(np.float32), w))
        out = f"t_{name}" if i < len(names) - 1 else "y"
        nodes.append(helper.make_node("Conv", [prev, w], [out], name=name, pads=[1, 1, 1, 1]))
        prev, c_in = out, channels
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, 8, 8])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def _conv_and_linear_resize(path: Path) -> Path:
    """Conv (10 channels: R004 WARN on both targets) then a 2x half-pixel linear Resize (R007 INFO: native)."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((10, 3, 3, 3)).astype(np.float32), "w"),
             numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("Resize", ["c", "", "scales"], ["y"], name="up", mode="linear",
                              coordinate_transformation_mode="half_pixel")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10, 16, 16])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def _page(tmp_path: Path, model: Path, **kw) -> tuple[dict, str]:
    result = build_report(ReportRequest(model=str(model), targets=("edge-10", "ethos-u55-128"),
                                        stages=("lint", "partition", "cost"), **kw))
    write_report(result, tmp_path / "out")
    return result, (tmp_path / "out" / "report.html").as_uri()


def _scale(page) -> float:
    """The view's zoom: the drawing's CSS transform (translate(..) scale(k))."""
    transform = page.evaluate("document.querySelector('svg.graph-svg').style.transform")
    return float(transform.split("scale(")[1].rstrip(")"))


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.graphReady === '1'")


def test_nodes_named_like_object_prototype_keys_render_with_their_findings(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result, url = _page(tmp_path, _convs(tmp_path / "proto.onnx", PROTO_NAMES))
    findings = result["lint"]["targets"]["edge-10"]["findings"]
    assert sorted(f["node"] for f in findings if f["rule"] == "R004") == sorted(PROTO_NAMES)
    _open(page, url)
    assert "failed" not in page.locator("#graph-status").inner_text()
    for i, name in enumerate(PROTO_NAMES):
        box = page.locator(f'g.gnode[data-unit="n:{i}"]')
        assert box.locator("title").text_content() == name
        assert box.locator("g.badge text").text_content() == str(sum(f["node"] == name for f in findings))
    assert watch.errors == []


def _scoped_chain(path: Path, blocks: int = 22, per_block: int = 20) -> Path:
    """A chain of blocks*per_block Relu nodes named /blk.B/unit.U/Relu (more than 400: the view starts collapsed)."""
    nodes, prev = [], "x"
    for b in range(blocks):
        for u in range(per_block):
            out = "y" if (b, u) == (blocks - 1, per_block - 1) else f"/blk.{b}/unit.{u}/Relu_output_0"
            nodes.append(helper.make_node("Relu", [prev], [out], name=f"/blk.{b}/unit.{u}/Relu"))
            prev = out
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 4, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 4, 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def _boxes(page) -> list[str]:
    return page.eval_on_selector_all("g.gnode", "gs => gs.map(g => g.dataset.unit)")


def test_search_finds_a_tensor_inside_a_collapsed_scope_and_centres_it(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result, url = _page(tmp_path, _scoped_chain(tmp_path / "chain.onnx"))
    names = [n["name"] for n in result["graph"]["nodes"]]
    _open(page, url)
    assert sorted(_boxes(page)) == sorted([f"g:blk.{b}" for b in range(22)] + ["io:input:x", "io:output:y"])
    page.fill("#graph-search", "blk.7/unit.3/relu_output")  # a tensor name, any case: its producer and consumer
    assert page.inner_text("#graph-search-count") == "2 matches"
    assert page.get_attribute('g.gnode[data-unit="g:blk.7"]', "class").endswith(" match")
    page.press("#graph-search", "Enter")
    target = names.index("/blk.7/unit.3/Relu")
    box = page.locator(f'g.gnode[data-unit="n:{target}"]')
    box.wait_for()
    assert box.get_attribute("class") == "gnode cat-npu selected match match-current"
    assert page.get_attribute(f'g.gnode[data-unit="n:{target + 1}"]', "class") == "gnode cat-npu match"
    assert page.inner_text("#graph-search-count") == "1 of 2"
    assert page.get_attribute("#node-info", "data-node") == str(target)
    b, g = box.bounding_box(), page.locator("#graph").bounding_box()
    assert abs(b["x"] + b["width"] / 2 - (g["x"] + g["width"] / 2)) < 2
    assert abs(b["y"] + b["height"] / 2 - (g["y"] + g["height"] / 2)) < 2
    hits = [n["id"] for n in result["graph"]["nodes"]
            if "unit.19/relu" in "\n".join([n["name"], n["op_type"], *n["inputs"], *n["outputs"]]).lower()]
    page.fill("#graph-search", "unit.19/Relu")  # every unit.19 node and the next block's first node (its input)
    assert page.inner_text("#graph-search-count") == f"{len(hits)} matches" == "43 matches"
    page.click("#graph-search-next")
    page.click("#graph-search-next")
    page.wait_for_selector(f'#node-info[data-node="{hits[1]}"]')
    page.click("#graph-search-prev")
    page.wait_for_selector(f'#node-info[data-node="{hits[0]}"]')
    page.click("#graph-search-prev")  # wraps to the last
    page.wait_for_selector(f'#node-info[data-node="{hits[-1]}"]')
    assert page.inner_text("#graph-search-count") == "43 of 43"
    assert watch.errors == []


def test_an_expanded_scope_collapses_again(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result, url = _page(tmp_path, _scoped_chain(tmp_path / "chain.onnx"))
    names = [n["name"] for n in result["graph"]["nodes"]]
    _open(page, url)
    before = sorted(_boxes(page))
    page.locator('g.gnode[data-unit="g:blk.3"]').dispatch_event("click")
    first = names.index("/blk.3/unit.0/Relu")
    page.locator(f'g.gnode[data-unit="n:{first}"]').wait_for()
    assert len(_boxes(page)) == len(before) - 1 + 20
    page.locator(f'g.gnode[data-unit="n:{first}"]').dispatch_event("click")
    page.click('#node-info button.collapse-scope[data-scope="blk.3"]')
    page.locator('g.gnode[data-unit="g:blk.3"]').wait_for()
    assert sorted(_boxes(page)) == before
    page.click("#graph-expand-all")
    page.wait_for_function("document.querySelectorAll('g.gnode').length === 442")
    page.click("#graph-collapse-all")
    page.wait_for_function("document.querySelectorAll('g.gnode').length === 24")
    assert sorted(_boxes(page)) == before and watch.errors == []


def test_svg_export_is_valid_svg_with_the_drawn_boxes(page_and_watch, tmp_path):
    import xml.etree.ElementTree as ET

    page, watch = page_and_watch
    result, url = _page(tmp_path, _convs(tmp_path / "proto.onnx", PROTO_NAMES))
    _open(page, url)
    drawn = len(_boxes(page))
    with page.expect_download() as dl:
        page.click("#graph-export-svg")
    assert dl.value.suggested_filename == "report.edge-10.graph.svg"
    root = ET.fromstring(Path(dl.value.path()).read_bytes())
    svg = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{svg}svg" and root.get("data-boxes") == str(drawn) == "5"
    boxes = [g for g in root.iter(f"{svg}g") if "gnode" in g.get("class", "").split()]
    assert len(boxes) == drawn
    assert sorted(b.find(f"{svg}title").text for b in boxes) == sorted(["input:x", "output:y", *PROTO_NAMES])
    assert len(list(root.iter(f"{svg}polyline"))) == 4 and ".graph-svg .gnode rect" in root.find(f"{svg}style").text
    assert watch.errors == []


def test_edges_are_labelled_with_their_tensor_shapes(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result, url = _page(tmp_path, _convs(tmp_path / "proto.onnx", PROTO_NAMES))
    _open(page, url)
    labels = page.eval_on_selector_all("g.edges text.elabel", "ts => ts.map(t => t.textContent)")
    expected = ["×".join(str(d) for d in e["shape"]) for e in result["graph"]["edges"]]
    assert sorted(labels) == sorted(expected) and len(labels) == 4
    assert "1×10×8×8" in labels and watch.errors == []
    tips = page.eval_on_selector_all("g.edges polyline", "ls => ls.map(l => l.querySelector('title').textContent)")
    assert sorted(tips) == sorted(f"{e['tensor']}: {'×'.join(str(d) for d in e['shape'])} {e['dtype']}"
                                  for e in result["graph"]["edges"])  # hover: tensor, shape and dtype


def test_png_export_is_a_png_of_the_whole_graph(page_and_watch, tmp_path):
    import struct

    page, watch = page_and_watch
    result, url = _page(tmp_path, _convs(tmp_path / "proto.onnx", PROTO_NAMES))
    _open(page, url)
    with page.expect_download() as dl:
        page.click("#graph-export-png")
    assert dl.value.suggested_filename == "report.edge-10.graph.png"
    data = Path(dl.value.path()).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    with page.expect_download() as dl_svg:
        page.click("#graph-export-svg")
    import xml.etree.ElementTree as ET

    svg = ET.fromstring(Path(dl_svg.value.path()).read_bytes())
    assert (width, height) == (2 * int(svg.get("width")), 2 * int(svg.get("height")))  # drawn at 2x
    assert watch.errors == []


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_report_page_with_a_node_panel_open_passes_axe(browser, tmp_path, screen):
    from test_a11y import SCREENS, violations

    result, url = _page(tmp_path, _convs(tmp_path / "proto.onnx", PROTO_NAMES))
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    try:
        _open(page, url)
        page.locator('g.gnode[data-unit="n:1"]').dispatch_event("click")
        page.wait_for_selector('#node-info[data-node="1"]')
        page.fill("#graph-search", "Conv")
        bad = violations(page)
        assert bad == [], bad
    finally:
        context.close()


def test_keyboard_walks_producers_and_consumers_and_buttons_zoom(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result, url = _page(tmp_path, _convs(tmp_path / "proto.onnx", PROTO_NAMES))
    _open(page, url)
    active = lambda: page.evaluate("document.activeElement.dataset.unit")  # noqa: E731
    page.focus('g.gnode[data-unit="io:input:x"]')
    for want in ("n:0", "n:1", "n:2", "io:output:y"):
        page.keyboard.press("ArrowDown")
        assert active() == want
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert active() == "n:1"
    page.keyboard.press("Enter")
    page.wait_for_selector('#node-info[data-node="1"]')
    assert page.evaluate("document.activeElement.getAttribute('role')") == "button"
    scale = lambda: _scale(page)  # noqa: E731
    k = scale()
    page.click("#graph-zoom-in")
    assert abs(scale() - min(4, k * 1.25)) < 1e-9
    page.click("#graph-zoom-out")
    assert abs(scale() - min(4, k * 1.25) * 0.8) < 1e-9
    assert watch.errors == []


def test_phone_puts_the_graph_above_the_panel_and_pinch_zooms(browser, tmp_path):
    result, url = _page(tmp_path, _convs(tmp_path / "proto.onnx", PROTO_NAMES))
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    try:
        _open(page, url)
        g, panel = page.locator("#graph").bounding_box(), page.locator("#node-info").bounding_box()
        assert g["width"] >= 330 and panel["y"] >= g["y"] + g["height"]
        scale = lambda: _scale(page)  # noqa: E731
        k = scale()
        page.evaluate("""() => {
            const svg = document.querySelector('svg.graph-svg'), r = svg.getBoundingClientRect();
            const ev = (type, id, x) => new PointerEvent(type, {pointerId: id, clientX: r.left + x,
                                                               clientY: r.top + 100, bubbles: true,
                                                               pointerType: 'touch'});
            svg.dispatchEvent(ev('pointerdown', 1, 100));
            svg.dispatchEvent(ev('pointerdown', 2, 150));
            window.dispatchEvent(ev('pointermove', 2, 200));  /* fingers 50 px apart, then 100 px */
            window.dispatchEvent(ev('pointerup', 1, 100));
            window.dispatchEvent(ev('pointerup', 2, 200));
        }""")
        assert abs(scale() - min(4, 2 * k)) < 1e-9
    finally:
        context.close()


def test_boxes_outside_the_view_are_not_drawn_until_the_view_reaches_them(page_and_watch, tmp_path):
    """A 60-node chain is taller than the view: boxes and edges outside it (plus a margin) are display:none, the
    keyboard walk to the last box brings it into view and draws it, labels too small to read are dropped when
    zoomed far out, and the SVG export holds every box and label whatever the view hides."""
    import xml.etree.ElementTree as ET

    page, watch = page_and_watch
    names = tuple(f"c{i}" for i in range(60))
    result, url = _page(tmp_path, _convs(tmp_path / "long.onnx", names))
    _open(page, url)
    shown = lambda: page.evaluate("[...document.querySelectorAll('g.gnode')]"  # noqa: E731
                                  ".filter(g => getComputedStyle(g).display !== 'none').map(g => g.dataset.unit)")
    first = shown()
    assert "io:input:x" in first and "io:output:y" not in first and 0 < len(first) < 62
    edges = page.evaluate("[...document.querySelectorAll('g.edges polyline')]"
                          ".filter(e => getComputedStyle(e).display !== 'none').length")
    assert 0 < edges < 61
    page.focus('g.gnode[data-unit="io:input:x"]')
    for _ in range(61):
        page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.unit") == "io:output:y"
    last = shown()
    assert "io:output:y" in last and "io:input:x" not in last
    label = "document.querySelector('g.gnode:not(.off) text')"
    assert page.evaluate(f"getComputedStyle({label}).display") != "none"
    for _ in range(6):
        page.click("#graph-zoom-out")  # 0.8 each: 0.26 of the first view, 11 px labels under 3 px
    assert _scale(page) < 4 / 11 and page.evaluate(f"getComputedStyle({label}).display") == "none"
    with page.expect_download() as dl:
        page.click("#graph-export-svg")
    root = ET.fromstring(Path(dl.value.path()).read_bytes())
    svg = "{http://www.w3.org/2000/svg}"
    classes = [g.get("class", "").split() for g in root.iter(f"{svg}g") if "gnode" in g.get("class", "").split()]
    assert len(classes) == 62 and not any("off" in c for c in classes)
    assert not {"lod-far", "lod-mid"} & set(root.get("class", "").split())
    assert watch.errors == []


def test_yolov8n_first_view_draws_node_labels_at_a_readable_size(page_and_watch, repo_site):
    """YOLOv8n's graph is wider than the view at 1:1: the first view keeps node labels >= 9 px on screen (the whole
    width at that size would be ~8 px) and leaves the sides to a drag; the fit button still fits the whole width."""
    page, watch = page_and_watch
    _open(page, (repo_site / "models" / "model-report-yolov8n.html").as_uri())
    on_screen = ("(() => { const t = document.querySelector('g.gnode text'); const k = parseFloat(document"
                 ".querySelector('svg.graph-svg').style.transform.split('scale(')[1]);"
                 " return parseFloat(getComputedStyle(t).fontSize) * k; })()")
    width = page.evaluate("[document.getElementById('graph').clientWidth, "
                          "+document.querySelector('svg.graph-svg').getAttribute('width')]")
    assert width[1] * 9 / 11 > width[0]  # the case this pins: the whole width would draw labels under 9 px
    assert page.evaluate(on_screen) >= 9 - 1e-9
    assert page.evaluate("getComputedStyle(document.querySelector('g.gnode text')).display") != "none"
    page.click("#graph-fit")
    assert page.evaluate(on_screen) < 9
    assert watch.errors == [] and watch.network == []


def test_badges_count_what_the_summary_counts_and_info_findings_stay_in_the_panel(page_and_watch, tmp_path):
    """Swin-Tiny said "0 errors, 32 warnings" while its badges also counted 29 INFO findings: badges count ERROR
    and WARN only (the summary's numbers), the summary names the INFO count apart, the node panel lists it."""
    page, watch = page_and_watch
    result, url = _page(tmp_path, _conv_and_linear_resize(tmp_path / "info.onnx"))
    lint = result["lint"]["targets"]["edge-10"]
    assert sorted((f["node"], f["severity"]) for f in lint["findings"]) == [("conv", "WARN"), ("up", "INFO")]
    _open(page, url)
    badges = page.eval_on_selector_all("g.gnode g.badge text", "ts => ts.map(t => +t.textContent)")
    assert sum(badges) == lint["summary"]["errors"] + lint["summary"]["warnings"] == 1
    assert page.locator('g.gnode[data-unit="n:1"] g.badge').count() == 0
    summary = page.locator("#model-summary dt:text-is('lint') + dd").inner_text()
    assert summary == "0 errors, 1 warnings, 1 info (no badge)"
    page.locator('g.gnode[data-unit="n:1"]').dispatch_event("click")
    page.wait_for_selector('#node-info[data-node="1"]')
    assert "R007" in page.locator("#node-info li.np-finding").inner_text()
    assert watch.errors == []
