import json

import onnx
import pytest
from report_models import conv_model, if_model

from npuready.errors import InputError
from npuready.paths import zoo_dir
from npuready.report import ReportRequest, build_report, report_failed, write_report

TARGETS = ("edge-10", "ethos-u55-128")


@pytest.fixture(scope="module")
def tiny():
    return build_report(ReportRequest(model=str(zoo_dir() / "tinycnn.onnx"), targets=TARGETS,
                                      stages=("lint", "partition", "cost")))


def test_sections_carry_their_evidence_labels(tiny):
    assert {k: v["evidence"] for k, v in tiny.items()} == {
        "model": "analysis", "graph": "analysis", "lint": "analysis", "partition": "analysis",
        "cost": "simulated", "checks": "analysis", "timing": "measured"}
    assert "ladder" not in tiny


def test_every_node_is_placed_and_costed_on_every_target(tiny):
    names = [n["name"] for n in tiny["graph"]["nodes"]]
    assert len(names) == len(onnx.load(zoo_dir() / "tinycnn.onnx").graph.node)
    for t in TARGETS:
        assert sorted(p["node"] for p in tiny["partition"]["targets"][t]["placements"]) == sorted(names)
        assert [layer["node"] for layer in tiny["cost"]["targets"][t]["layers"]] == names
        assert tiny["lint"]["targets"][t]["target"] == t


def test_sanity_checks_hold_and_are_stated(tiny):
    checks = tiny["checks"]
    assert checks["node_count"] == {"report_nodes": 10, "onnx_nodes": 10, "ok": True}
    assert set(checks["targets"]) == set(TARGETS) and checks["all_ok"] and not report_failed(tiny)
    for t in TARGETS:
        assert (checks["targets"][t]["cycles_sum"]["npu_layers_cycles"]
                == tiny["cost"]["targets"][t]["total"]["npu_cycles"])
    assert checks["macs"]["independent_macs"] is None  # not a library recipe: no second count


def test_calibration_adds_a_measured_parity_ladder():
    result = build_report(ReportRequest(model=str(zoo_dir() / "tinycnn.onnx"), targets=("edge-10",),
                                        stages=("cost", "quantize"), calibration="fashion-mnist:test", images=8))
    ladder = result["ladder"]
    assert ladder["evidence"] == "measured" and ladder["status"] == "ran" and ladder["ladder"]["images"] == 8
    assert set(ladder["ladder"]["agreement"]) == {"fake_quant_vs_float", "integer_vs_fake_quant", "integer_vs_float"}
    assert "lint" not in result and "partition" not in result


def test_shape_pin_on_a_file(tmp_path):
    path = tmp_path / "conv.onnx"
    onnx.save(conv_model(), path)
    result = build_report(ReportRequest(model=str(path), targets=("edge-10",), stages=("cost",),
                                        input_shapes=(("x", (1, 3, 8, 8)),)))
    assert result["graph"]["inputs"][0]["shape"] == [1, 3, 8, 8]
    assert result["cost"]["targets"]["edge-10"]["total"]["macs"] == 8 * 8 * 4 * 3 * 3 * 3
    with pytest.raises(InputError, match="--input-shape names input 'y', which the model does not have"):
        build_report(ReportRequest(model=str(path), stages=("cost",), input_shapes=(("y", (1, 3, 8, 8)),)))


def test_if_model_counts_only_main_graph_nodes(tmp_path):
    path = tmp_path / "if.onnx"
    onnx.save(if_model(), path)
    result = build_report(ReportRequest(model=str(path), targets=("edge-10",), stages=("lint", "partition")))
    assert result["checks"]["node_count"] == {"report_nodes": 2, "onnx_nodes": 2, "ok": True}
    assert result["graph"]["collapsed_subgraphs"] == 2


def test_missing_model_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such ONNX file"):
        build_report(ReportRequest(model=str(tmp_path / "nope.onnx")))


def test_write_report_is_the_json_boundary(tiny, tmp_path):
    path = write_report(tiny, tmp_path / "out")
    stable = {k: v for k, v in tiny.items() if k != "timing"}
    assert path == tmp_path / "out" / "result.json" and json.loads(path.read_text()) == stable
    assert json.loads((tmp_path / "out" / "timing.json").read_text()) == tiny["timing"]
