"""The Vela adapter on real Vela 5.2.0 output for pool_net on Ethos-U55-128 (tests/cost/data)."""
from pathlib import Path

import pytest

from npuready.cost import estimate, vela
from npuready.cost.examples import pool_net
from npuready.errors import InputError
from npuready.experiments.runners.cost_vs_vela import compare
from npuready.graph import load
from npuready.targets import load_target

DATA = Path(__file__).parent / "data"


def _fixture():
    return (vela.parse_per_layer(DATA / "vela_pool_net_u55-128_per-layer.csv"),
            vela.parse_summary(DATA / "vela_pool_net_u55-128_summary.csv"))


def test_parse_per_layer_and_summary():
    rows, summary = _fixture()
    assert summary["accelerator_configuration"] == "Ethos_U55_128"
    assert (summary["system_config"], summary["memory_mode"]) == ("Ethos_U55_High_End_Embedded", "Shared_Sram")
    assert sum(r["Op Cycles"] for r in rows) == summary["cycles_total"]
    assert [r["Original Operator"] for r in rows][:3] == ["Conv2D", "Conv2D", "MaxPool"]


def test_rows_group_onto_onnx_tensors():
    rows, summary = _fixture()
    graph = load(pool_net())
    ops = vela.vela_ops(rows, graph)
    assert [(o["tensor"], o["category"]) for o in ops] == [
        ("relu2", "conv"), ("maxpool3", "pooling"), ("relu5", "conv"), ("averagepool6", "pooling"),
        ("relu8", "depthwise"), ("globalaveragepool9", "pooling"), ("fc11", "fully_connected")]
    assert ops[5]["vela_ops"] == ["DepthwiseConv2D", "Mul"]  # Vela lowers MEAN into these two
    assert sum(o["cycles"] for o in ops) == summary["cycles_total"]
    groups = vela.node_groups(graph, {o["tensor"] for o in ops})
    assert groups["conv1"] == groups["relu2"] == "relu2"


def test_compare_uses_every_row():
    rows, summary = _fixture()
    result = compare(load(pool_net()), load_target("ethos-u55-128"), rows, summary)
    assert result["reference_cycles"] == summary["cycles_total"]
    assert result["ours_unmatched_cycles"] == 0
    assert sum(x["reference_cycles"] for x in result["layers"]) == summary["cycles_total"]
    assert set(result["per_category"]) == {"conv", "pooling", "depthwise", "fully_connected"}


def test_parse_rejects_other_csv(tmp_path):
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="not a Vela per-layer CSV"):
        vela.parse_per_layer(bad)
    with pytest.raises(InputError, match="not a Vela summary CSV"):
        vela.parse_summary(bad)


def test_non_vela_target_is_refused(tmp_path):
    with pytest.raises(InputError, match="not a Vela mirror"):
        vela.compile_tflite(tmp_path / "m.tflite", load_target("edge-10"), tmp_path)


def test_a_tensor_written_by_rows_apart_is_one_entry():
    rows, summary = _fixture()
    graph = load(pool_net())
    again = dict(rows[0], **{"Op Cycles": 7})  # a later row writing the first tensor again
    ops = vela.vela_ops(rows + [again], graph)
    assert [o["tensor"] for o in ops].count("relu2") == 1
    first = vela.vela_ops(rows, graph)[0]
    assert ops[0]["cycles"] == first["cycles"] + 7
    target = load_target("ethos-u55-128")
    result = compare(graph, target, rows + [again], dict(summary, cycles_total=summary["cycles_total"] + 7))
    npu = [layer.cycles for layer in estimate(graph, target).layers if layer.device == "npu"]
    assert result["ours_cycles"] == sum(npu)  # every ONNX node counted once


def test_cpu_rows_do_not_absorb_the_npu_rows_before_them():
    rows, summary = _fixture()
    graph = load(pool_net())
    # Vela leaves a layer to the CPU (Passthrough): an unnamed NPU row before it belongs to the next NPU tensor
    unnamed = dict(rows[2], **{"Name": "#17", "Op Cycles": 11})
    cpu = dict(rows[2], **{"Target": "CPU", "NNG Operator": "Passthrough", "Op Cycles": 0})
    ops = vela.vela_ops(rows[:2] + [unnamed, cpu] + rows[2:], graph)
    assert [o["tensor"] for o in ops] == [o["tensor"] for o in vela.vela_ops(rows, graph)]
    assert ops[1]["cycles"] == vela.vela_ops(rows, graph)[1]["cycles"] + 11
    assert "Passthrough" not in ops[1]["vela_ops"]
