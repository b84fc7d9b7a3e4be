"""Benchmark: pan and zoom frames per second of the model page's graph view with 1,000 drawn boxes, in headless
Chromium from file://, with Netron's on the same ONNX file in the same run as the reference. Run with
`make bench`.

Target (issue 28): at least 30 frames per second while zooming and while panning. The graph: a generated
residual network (Conv, Relu, Conv, Add, Relu blocks) of 998 nodes, drawn as 1,000 boxes (its input and output
too) and 1,198 edges by both viewers. Frames are counted with requestAnimationFrame while every frame gets one
more step of scripted wheel zoom (about the middle of the view, 30 frames in, 30 out) or drag pan (a circle of
200 px); the same in Netron (ctrl+wheel, which zooms there, and the scroll offsets its drag sets). Each figure is
the median of ROUNDS runs of SECONDS s. Netron is optional (benchmarks/netron_ref.py says how to get it).
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.site.browser import chromium_path, launch

sys.path.insert(0, str(Path(__file__).parent))  # the benchmarks' own helper beside this file
from netron_ref import netron_python, netron_version, open_netron, serving  # noqa: E402

FPS_TARGET = 30.0
BOXES = 1000
ROUNDS, SECONDS = 3, 3.0
VIEWPORT = {"width": 1280, "height": 800}

# one frame = one step of the gesture; mode: zoom | pan, how: ours | netron
FPS_JS = """async ([sel, mode, how, ms]) => {
  const el = document.querySelector(sel), r = el.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const pointer = (type, x, y) => new PointerEvent(type, {pointerId: 7, clientX: x, clientY: y, bubbles: true});
  if (mode === 'pan' && how === 'ours') el.dispatchEvent(pointer('pointerdown', cx, cy));
  const sx = el.scrollLeft, sy = el.scrollTop;
  let frames = 0, i = 0;
  const t0 = performance.now();
  return await new Promise(done => {
    function step(now) {
      frames++;
      if (now - t0 > ms) {
        if (mode === 'pan' && how === 'ours') window.dispatchEvent(pointer('pointerup', cx, cy));
        done(1000 * frames / (now - t0));
        return;
      }
      i++;
      const dir = Math.floor(i / 30) % 2 ? 1 : -1, a = i / 15;
      if (mode === 'zoom') el.dispatchEvent(new WheelEvent('wheel', {deltaY: 30 * dir, ctrlKey: how === 'netron',
        clientX: cx, clientY: cy, bubbles: true, cancelable: true}));
      else if (how === 'ours') window.dispatchEvent(pointer('pointermove', cx + 200 * Math.sin(a),
                                                             cy + 200 * Math.cos(a)));
      else { el.scrollLeft = sx + 200 + 200 * Math.sin(a); el.scrollTop = sy + 200 + 200 * Math.cos(a); }
      requestAnimationFrame(step);
    }
    requestAnimationFrame(step);
  });
}"""


def residual_net(path, boxes: int = BOXES, channels: int = 8):
    """Residual blocks until ``boxes`` boxes are drawn (nodes + the graph input + its output)."""
    rng = np.random.default_rng(0)
    nodes, inits = [], []

    def conv(x, name):
        w = f"{name}.w"
        weight = rng.standard_normal((channels, channels, 3, 3)).astype(np.float32) * 0.1
        inits.append(numpy_helper.from_array(weight, w))
        nodes.append(helper.make_node("Conv", [x, w], [name], name=name, pads=[1, 1, 1, 1]))
        return name

    def op(kind, inputs, name):
        nodes.append(helper.make_node(kind, inputs, [name], name=name))
        return name

    x = op("Relu", [conv("x", "stem_conv")], "stem_relu")
    want = boxes - 3  # the input and output boxes, the final pool
    b = 0
    while len(nodes) + 5 <= want:
        y = conv(op("Relu", [conv(x, f"b{b}_conv1")], f"b{b}_relu1"), f"b{b}_conv2")
        x = op("Relu", [op("Add", [x, y], f"b{b}_add")], f"b{b}_relu2")
        b += 1
    while len(nodes) < want:
        x = op("Relu", [x], f"extra_relu{len(nodes)}")
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["y"], name="pool"))
    graph = helper.make_graph(nodes, "residual",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, 1, 1])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


@pytest.fixture(scope="module")
def thousand_boxes(tmp_path_factory):
    from npuready.report import ReportRequest, build_report, write_report

    out = tmp_path_factory.mktemp("fps")
    model = residual_net(out / "residual.onnx")
    write_report(build_report(ReportRequest(model=str(model), stages=("lint", "partition", "cost"))), out / "report")
    return model, out / "report" / "report.html"


def _fps(page, sel: str, mode: str, how: str) -> float:
    return statistics.median(page.evaluate(FPS_JS, [sel, mode, how, SECONDS * 1000]) for _ in range(ROUNDS))


def test_graph_view_pan_and_zoom_frames_per_second(benchmark, thousand_boxes):
    if chromium_path() is None:
        pytest.skip("no system Chromium (python tools/ensure_browser.py)")
    from playwright.sync_api import sync_playwright

    model, page_path = thousand_boxes
    figures: dict = {}
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(page_path.as_uri())
        page.wait_for_function("document.documentElement.dataset.graphReady === '1'", timeout=120000)
        boxes = page.locator("g.gnode").count()
        assert boxes == BOXES
        figures["npuready"] = {"boxes": boxes, "edges": page.locator("g.edges polyline").count(),
                               "pan_fps": round(_fps(page, "#graph", "pan", "ours"), 1)}
        figures["npuready"]["zoom_fps"] = round(benchmark.pedantic(
            lambda: _fps(page, "#graph", "zoom", "ours"), rounds=1, iterations=1), 1)
        python = netron_python()
        if python is not None:
            with serving(python, model) as url:
                context, netron, _ = open_netron(browser, url, VIEWPORT)
                figures["netron"] = {"version": netron_version(python),
                                     "boxes": netron.locator("#canvas g.node").count(),
                                     "edges": netron.locator("#canvas path.edge-path").count(),
                                     "zoom_fps": round(_fps(netron, "#target", "zoom", "netron"), 1),
                                     "pan_fps": round(_fps(netron, "#target", "pan", "netron"), 1)}
                context.close()
        browser.close()
    benchmark.extra_info.update(figures)
    ours = figures["npuready"]
    ref = figures.get("netron")
    reference = (f"Netron {ref['version']} ({ref['boxes']} boxes, {ref['edges']} edges) zoom {ref['zoom_fps']} fps, "
                 f"pan {ref['pan_fps']} fps" if ref else "Netron not installed (benchmarks/netron_ref.py)")
    print(f"\n{ours['boxes']} boxes, {ours['edges']} edges: npuready zoom {ours['zoom_fps']} fps, "
          f"pan {ours['pan_fps']} fps (target {FPS_TARGET:.0f}); {reference}")
    assert ours["zoom_fps"] >= FPS_TARGET and ours["pan_fps"] >= FPS_TARGET, figures
