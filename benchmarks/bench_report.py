"""Benchmark: `npuready report` building and writing on generated graphs that used to be super-linear or huge
(issue 31). Run with `make bench`.

Targets on this 2-core machine: a Sum over 20,000 graph inputs builds its report (lint, partition, cost on one
target) within 30 s (it took past 300 s when the graph description rebuilt the input-name set per edge and the
partition scanned a list per read), and a 20,000-node chain writes at most 16 MiB of result.json + report.html
(default report size budget; listed in full on two targets it wrote 66 MiB). Measured seconds and bytes go to
extra_info.
"""
from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from npuready.report import ReportRequest, build_report, write_report

WIDE_TARGET_S = 30.0
CHAIN_BYTES_TARGET = 16 << 20
N = 20_000


def _save(graph, path):
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def _wide(path):
    return _save(helper.make_graph(
        [helper.make_node("Sum", [f"i{k}" for k in range(N)], ["y"], name="sum")], "wide",
        [helper.make_tensor_value_info(f"i{k}", TensorProto.FLOAT, [1, 4]) for k in range(N)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])]), path)


def _chain(path):
    nodes = [helper.make_node("Relu", [f"t{i}" if i else "x"], [f"t{i + 1}" if i < N - 1 else "y"], name=f"r{i}")
             for i in range(N)]
    return _save(helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                                   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])]), path)


def test_report_on_20000_graph_inputs(benchmark, tmp_path):
    request = ReportRequest(model=str(_wide(tmp_path / "wide.onnx")), targets=("edge-10",),
                            stages=("lint", "partition", "cost"))
    benchmark.pedantic(build_report, args=(request,), rounds=1, iterations=1)
    assert benchmark.stats["max"] < WIDE_TARGET_S


def test_report_files_of_a_20000_node_chain(benchmark, tmp_path):
    request = ReportRequest(model=str(_chain(tmp_path / "chain.onnx")), targets=("edge-10",),
                            stages=("lint", "partition", "cost"))

    def build_and_write():
        write_report(build_report(request), tmp_path / "out")
    benchmark.pedantic(build_and_write, rounds=1, iterations=1)
    written = sum((tmp_path / "out" / f).stat().st_size for f in ("result.json", "report.html"))
    benchmark.extra_info["bytes_written"] = written
    assert written <= CHAIN_BYTES_TARGET
