"""The graph view with a NUL byte in an ONNX scope name (issue 31: "a scope name with NUL empties the graph on
expand"): the collapsed scope box is drawn, a click expands it into its nodes, and nothing throws."""
from __future__ import annotations

from pathlib import Path

import onnx
from onnx import TensorProto, helper

from npuready.report import ReportRequest, build_report, write_report

SCOPE = "blk\x00.3"  # a NUL inside the scope's name


def _chain(path: Path, blocks: int = 22, per_block: int = 20) -> Path:
    """blocks*per_block Relu nodes named /<block>/unit.U/Relu (more than 400: the view starts collapsed)."""
    nodes, prev = [], "x"
    for b in range(blocks):
        block = SCOPE if b == 3 else f"blk.{b}"
        for u in range(per_block):
            out = "y" if (b, u) == (blocks - 1, per_block - 1) else f"/{block}/unit.{u}/Relu_output_0"
            nodes.append(helper.make_node("Relu", [prev], [out], name=f"/{block}/unit.{u}/Relu"))
            prev = out
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 4, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 4, 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def test_a_scope_named_with_a_nul_expands_into_its_nodes(page_and_watch, tmp_path):
    page, watch = page_and_watch
    result = build_report(ReportRequest(model=str(_chain(tmp_path / "nul.onnx")), targets=("edge-10",),
                                        stages=("lint", "partition", "cost")))
    assert any(SCOPE in n["name"] for n in result["graph"]["nodes"])
    write_report(result, tmp_path / "out")
    page.goto((tmp_path / "out" / "report.html").as_uri())
    page.wait_for_function("document.documentElement.dataset.graphReady === '1'")
    units = "() => Array.from(document.querySelectorAll('g.gnode'), g => g.dataset.unit)"
    before = page.evaluate(units)
    assert "g:" + SCOPE in before, before
    page.evaluate("u => Array.from(document.querySelectorAll('g.gnode')).find(g => g.dataset.unit === u)"
                  ".dispatchEvent(new MouseEvent('click', {bubbles: true}))", "g:" + SCOPE)
    page.wait_for_function(f"document.querySelectorAll('g.gnode').length === {len(before) - 1 + 20}")
    after = page.evaluate(units)
    first = [n["name"] for n in result["graph"]["nodes"]].index(f"/{SCOPE}/unit.0/Relu")
    assert f"n:{first}" in after and "g:" + SCOPE not in after
    assert "failed" not in page.locator("#graph-status").inner_text() and watch.errors == []
