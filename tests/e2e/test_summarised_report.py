"""A report above its size budget (report.budget) opens from file://, draws the nodes it lists, fills the
per-layer table with their rows and says it is summarised. 0 console errors, 0 network requests."""
from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from npuready.report import ReportRequest, build_report, write_report


def _chain(path, n):
    nodes = [helper.make_node("Relu", [f"t{i}" if i else "x"], [f"t{i + 1}" if i < n - 1 else "y"], name=f"r{i}")
             for i in range(n)]
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def test_a_summarised_report_page_draws_what_it_lists_and_says_so(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result = build_report(ReportRequest(model=str(_chain(tmp_path / "chain.onnx", 60)), targets=("edge-10",),
                                        stages=("lint", "partition", "cost"), max_report_nodes=20))
    write_report(result, tmp_path / "out")
    page.goto((tmp_path / "out" / "report.html").as_uri())
    page.wait_for_function("document.documentElement.dataset.graphReady === '1'")
    assert "Summarised report" in page.locator("#report-summarised").inner_text()
    assert page.locator("g.gnode").count() == 20 + 1  # the listed nodes and the graph input
    assert page.locator("#layer-table tbody tr").count() == 20
    assert watch.errors == [] and watch.network == []
