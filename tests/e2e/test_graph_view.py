"""The model page's graph view in Chromium: names that are Object.prototype keys, the node side panel and the
target switcher, search, collapse, SVG export. Reports built here from small ONNX graphs and the zoo."""
from __future__ import annotations

from pathlib import Path

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


def _page(tmp_path: Path, model: Path, **kw) -> tuple[dict, str]:
    result = build_report(ReportRequest(model=str(model), targets=("edge-10", "ethos-u55-128"),
                                        stages=("lint", "partition", "cost"), **kw))
    write_report(result, tmp_path / "out")
    return result, (tmp_path / "out" / "report.html").as_uri()


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
