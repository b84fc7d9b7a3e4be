import pytest

from npuready.errors import InputError
from npuready.experiments.run import build_result
from npuready.experiments.spec import load_spec

SPEC = '''id = "{id}"
kind = "{kind}"
title = "Model report: tinycnn"
summary = "tinycnn through lint, partition and cost."
view = "records"

[params]
model = "zoo/tinycnn.onnx"
targets = ["edge-10"]
stages = ["lint", "partition", "cost"]
'''


def _spec(tmp_path, kind="model-report", exp_id="report-tiny"):
    d = tmp_path / exp_id
    d.mkdir()
    (d / "spec.toml").write_text(SPEC.format(id=exp_id, kind=kind))
    return d / "spec.toml"


def test_model_report_kind_runs_without_a_registered_runner(tmp_path):
    spec = load_spec(_spec(tmp_path))
    assert spec.kind == "model-report" and spec.to_dict()["kind"] == "model-report"
    doc = build_result(spec, show_progress=False)
    assert set(doc["results"]) == {"model", "graph", "lint", "partition", "cost", "checks"}
    assert doc["timing"]["report.total_s"] > 0  # the report's wall seconds sit in the timing block
    assert doc["results"]["checks"]["all_ok"] and "zoo/tinycnn.onnx" in doc["provenance"]["inputs"]


def test_unknown_kind_is_refused(tmp_path):
    with pytest.raises(InputError, match="kind 'benchmark' is not one of model-report"):
        load_spec(_spec(tmp_path, kind="benchmark"))


def test_committed_yolov8n_report_restates_its_checks_from_its_own_data():
    import json

    from npuready.paths import experiments_dir

    path = experiments_dir() / "model-report-yolov8n" / "result.json"
    if not path.exists():
        pytest.skip("no committed model-report-yolov8n result")
    r = json.loads(path.read_text())["results"]
    assert len(r["graph"]["nodes"]) == r["checks"]["node_count"]["onnx_nodes"] == r["graph"]["node_count"]
    for target, cost in r["cost"]["targets"].items():
        assert sum(x["cycles"] for x in cost["layers"] if x["device"] == "npu") == cost["total"]["npu_cycles"]
        names = {p["node"] for p in r["partition"]["targets"][target]["placements"]}
        assert names == {n["name"] for n in r["graph"]["nodes"]}
        assert r["checks"]["targets"][target]["yolo_tail"]["ok"]
    assert r["checks"]["macs"]["ok"] and r["checks"]["all_ok"]
