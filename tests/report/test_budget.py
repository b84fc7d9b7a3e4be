"""The report size budget (report.budget): above N nodes, edges or inputs the report lists the first N nodes
and at most N entries per list; totals and checks still cover the whole graph, and the page says so."""
import json

import onnx
import pytest
from report_models import chain_model, sum_model

from npuready.cli import main
from npuready.errors import InputError
from npuready.report import ReportRequest, build_report
from npuready.report.budget import DEFAULT_MAX_REPORT_NODES
from npuready.site.standalone import standalone_files

STAGES = ("lint", "partition", "cost")


def _report(tmp_path, model, name, **kw):
    path = tmp_path / f"{name}.onnx"
    onnx.save(model, path)
    return build_report(ReportRequest(model=str(path), targets=("edge-10",), stages=STAGES, **kw))


def test_a_chain_above_the_budget_lists_its_first_nodes_and_their_records_only(tmp_path):
    full = _report(tmp_path, chain_model(30), "chain")
    cut = _report(tmp_path, chain_model(30), "chain", max_report_nodes=10)
    assert "summarised" not in full and len(full["graph"]["nodes"]) == 30
    names = [n["name"] for n in cut["graph"]["nodes"]]
    assert names == [f"relu{i}" for i in range(10)]
    assert [(e["from"], e["to"]) for e in cut["graph"]["edges"]] == [("input:x", 0)] + [(i, i + 1) for i in range(9)]
    part, cost = cut["partition"]["targets"]["edge-10"], cut["cost"]["targets"]["edge-10"]
    assert [p["node"] for p in part["placements"]] == names and [s["nodes"] for s in part["segments"]] == [names]
    assert [layer["node"] for layer in cost["layers"]] == names
    assert cost["total"] == full["cost"]["targets"]["edge-10"]["total"]  # totals over the whole graph
    assert cut["checks"] == full["checks"] and cut["checks"]["node_count"]["report_nodes"] == 30
    assert cut["graph"]["node_count"] == 30
    s = cut["summarised"]
    assert (s["max_report_nodes"], s["node_count"], s["nodes_listed"], s["edge_count"]) == (10, 30, 10, 31)
    assert s["cut_lists"] == {"/cost/targets/edge-10/layers": 30, "/graph/edges": 31, "/graph/nodes": 30,
                              "/partition/targets/edge-10/placements": 30,
                              "/partition/targets/edge-10/segments/0/nodes": 30}
    assert s["targets"]["edge-10"]["cost"]["cycles_by_op_type"] == {
        "Relu": sum(layer["cycles"] for layer in full["cost"]["targets"]["edge-10"]["layers"])}


def test_many_graph_inputs_are_cut_to_the_budget_too(tmp_path):
    cut = _report(tmp_path, sum_model(30), "sum", max_report_nodes=10)
    assert len(cut["graph"]["inputs"]) == 10 and len(cut["graph"]["nodes"][0]["inputs"]) == 10
    assert len(cut["graph"]["edges"]) == 10
    assert cut["summarised"]["cut_lists"]["/graph/inputs"] == 30
    assert cut["summarised"]["cut_lists"]["/graph/nodes/0/inputs"] == 30
    assert cut["summarised"]["input_count"] == 30


def test_every_list_of_a_summarised_report_is_within_the_budget(tmp_path):
    cut = _report(tmp_path, sum_model(40), "sum", max_report_nodes=7)

    def lists(value):
        if isinstance(value, dict):
            for v in value.values():
                yield from lists(v)
        elif isinstance(value, list):
            yield value
            for v in value:
                yield from lists(v)
    assert max(len(x) for k, v in cut.items() if k != "summarised" for x in lists(v)) == 7


def test_the_page_of_a_summarised_report_says_so_and_a_full_one_does_not(tmp_path):
    cut = _report(tmp_path, chain_model(12), "chain", max_report_nodes=5)
    page = standalone_files(cut)["report.html"].decode()
    assert 'id="report-summarised"' in page and "the first 5 nodes and at most 5 entries per list" in page
    full = _report(tmp_path, chain_model(12), "chain")
    assert "report-summarised" not in standalone_files(full)["report.html"].decode()


def test_the_default_budget_is_documented_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    assert f"(default {DEFAULT_MAX_REPORT_NODES:,})" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("value", [0, -3, True, 2.5])
def test_a_budget_below_one_is_refused(value):
    with pytest.raises(InputError, match="--max-report-nodes .* must be a whole number of at least 1"):
        ReportRequest(model="m.onnx", max_report_nodes=value)


def test_the_cli_option_sets_the_budget(tmp_path, capsys):
    path = tmp_path / "chain.onnx"
    onnx.save(chain_model(12), path)
    assert main(["report", str(path), "-t", "edge-10", "--stages", "lint,partition,cost", "--max-report-nodes", "4",
                 "--out", str(tmp_path / "r")]) == 0
    doc = json.loads((tmp_path / "r" / "result.json").read_text())
    assert len(doc["graph"]["nodes"]) == 4 and doc["summarised"]["max_report_nodes"] == 4
    err = capsys.readouterr().err
    assert "report: summarised: 12 nodes, 13 edges, 1 graph inputs; listed: the first 4 nodes" in err
