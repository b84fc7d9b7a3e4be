"""Model Explorer node data from a report (npuready.report.model_explorer), in the format of Model Explorer's
``node_data_builder.py``: {graph id: GraphNodeData{results: {node key: NodeDataResult{value}}, gradient |
thresholds}}, node keys = output tensor names, the graph id = the ONNX graph's name (the ONNX adapter's)."""
import json
import numbers

import onnx
import pytest

from npuready.errors import InputError
from npuready.paths import zoo_dir
from npuready.report import ReportRequest, build_report
from npuready.report.model_explorer import node_data

MODEL = zoo_dir() / "resnet20.onnx"
GRAPH_FIELDS = {"results", "name", "thresholds", "gradient", "hideInAggregatedStatsTable",
                "hideInChildrenStatsTable", "hideAggregatedStats", "showExpandedSummaryOnGroupNode",
                "showLabelCountColumnsInChildrenStatsTable"}


@pytest.fixture(scope="module")
def result():
    return build_report(ReportRequest(model=str(MODEL), targets=("edge-10", "ethos-u55-128"),
                                      stages=("lint", "partition", "cost")))


def test_files_follow_the_node_data_format_and_key_nodes_by_output_tensor(result):
    model = onnx.load(MODEL, load_external_data=False)
    outputs = {n.output[0] for n in model.graph.node}
    files = node_data(result)
    assert sorted(files) == [f"{t}.{k}.json" for t in ("edge-10", "ethos-u55-128")
                             for k in ("cycles", "findings", "placement")]
    for name, doc in files.items():
        assert list(doc) == [model.graph.name], name
        g = doc[model.graph.name]
        assert set(g) <= GRAPH_FIELDS and g["results"] and set(g["results"]) <= outputs
        assert all(set(r) == {"value"} and isinstance(r["value"], numbers.Number) for r in g["results"].values())
        if "gradient" in g:
            assert [s["stop"] for s in g["gradient"]][0] == 0 and g["gradient"][-1]["stop"] == 1
        else:
            values = [t["value"] for t in g["thresholds"]]
            assert values == sorted(values) and all("bgColor" in t for t in g["thresholds"])


def test_values_are_the_reports_own_numbers(result):
    files = node_data(result)
    by_node = {n["name"]: n["outputs"][0] for n in result["graph"]["nodes"]}
    layers = result["cost"]["targets"]["ethos-u55-128"]["layers"]
    cycles = files["ethos-u55-128.cycles.json"][result["graph"]["name"]]["results"]
    placement = files["ethos-u55-128.placement.json"][result["graph"]["name"]]["results"]
    for x in layers:
        assert cycles[by_node[x["node"]]]["value"] == x["cycles"]
        assert placement[by_node[x["node"]]]["value"] == {"npu": 1.0, "folded": 0.5}.get(x["device"], 0.0)
    findings = files["edge-10.findings.json"][result["graph"]["name"]]["results"]
    expected = sum(f["severity"] in ("ERROR", "WARN") and f["node"] in by_node
                   for f in result["lint"]["targets"]["edge-10"]["findings"])
    assert sum(r["value"] for r in findings.values()) == expected


def test_written_with_the_report_set_and_an_old_report_is_refused(result, tmp_path):
    from npuready.report.write import write_report

    write_report(result, tmp_path / "out", model_explorer=True)
    paths = sorted((tmp_path / "out" / "model-explorer").iterdir())
    assert [p.name for p in paths] == sorted(node_data(result)) and all(json.loads(p.read_text()) for p in paths)
    write_report(result, tmp_path / "out", model_explorer=True)  # an earlier report's folder is replaced
    old = {**result, "graph": {k: v for k, v in result["graph"].items() if k != "name"}}
    with pytest.raises(InputError, match="no graph name"):
        node_data(old)
