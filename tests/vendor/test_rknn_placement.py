"""npuready's per-node placement beside librknnc's layer table: layer names mapped back to ONNX nodes."""
from dataclasses import dataclass, field
from pathlib import Path

from npuready.vendor.rknn_log import parse
from npuready.vendor.rknn_placement import compare, owner

LOG = (Path(__file__).parent / "data" / "rknn_resnet20_layers.log").read_text()


@dataclass
class N:
    name: str
    op_type: str
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)


# x -> conv -> relu -> add(+x) -> flatten -> gemm -> logits
NODES = [N("/c/Conv", "Conv", ["x"], ["/c/Conv_output_0"]), N("/act/Relu", "Relu", ["/c/Conv_output_0"], ["r"]),
         N("/Add", "Add", ["r", "x"], ["a"]), N("/Flatten", "Flatten", ["a"], ["f"]),
         N("/fc/Gemm", "Gemm", ["f"], ["logits"]), N("/Constant", "Constant", [], ["k"])]


def _layer(name, target="NPU", op="Conv"):
    return {"op_type": op, "target": target, "full_name": name}


def test_layer_names_map_to_nodes_or_tensors_longest_first():
    names = [n.name for n in NODES]
    producers = {o: n.name for n in NODES for o in n.outputs}
    assert owner("Conv:/c/Conv_ConvAddRelu", names, producers) == "/c/Conv"
    assert owner("Conv:/fc/Gemm#2", names, producers) == "/fc/Gemm"
    assert owner("Reshape:logits_mm_tp_rs", names, producers) == "/fc/Gemm"  # a tensor name: its producer
    assert owner("Conv:/act/Relu_output_0_gavg_2conv0", names, producers) == "/act/Relu"
    assert owner("Conv:/c/Convolution", names, producers) is None  # a longer word is not the node


def test_fused_nodes_follow_their_layer_and_helpers_are_listed():
    layers = [_layer("InputOperator:x", "CPU", "InputOperator"), _layer("Conv:/c/Conv_ConvAddRelu"),
              _layer("Conv:/fc/Gemm#2"), _layer("Reshape:logits_mm_tp_rs", "CPU", "Reshape"),
              _layer("OutputOperator:logits", "CPU", "OutputOperator")]
    c = compare(NODES, {n.name: "npu" for n in NODES}, layers)
    assert (c["nodes"], c["agreeing"], c["agreement"]) == (5, 5, 1.0)  # the Constant is left out
    assert (c["nodes_with_layers"], c["nodes_fused_inferred"]) == (2, 3)
    assert c["cpu_helper_layers"] == [{"layer": "Reshape:logits_mm_tp_rs", "node": "/fc/Gemm", "op_type": "Reshape"}]
    assert [x["layer"] for x in c["io_layers"]] == ["InputOperator:x", "OutputOperator:logits"]
    assert c["disagreements"] == [] and c["unmapped_layers"] == []


def test_every_disagreement_is_listed_with_its_cause():
    layers = [_layer("Conv:/c/Conv_ConvRelu"), _layer("Add:/Add", "CPU", "Add"), _layer("Conv:/fc/Gemm"),
              _layer("Mystery:elsewhere")]
    devices = {"/c/Conv": "npu", "/act/Relu": "npu", "/Add": "npu", "/Flatten": "npu", "/fc/Gemm": "cpu"}
    c = compare(NODES, devices, layers)
    rows = {r["node"]: r for r in c["disagreements"]}
    assert set(rows) == {"/Add", "/Flatten", "/fc/Gemm"} and c["agreeing"] == 2
    assert rows["/Add"]["rknn"] == "cpu" and "CPU fallback" in rows["/Add"]["cause"]
    assert rows["/Add"]["rknn_layers"] == ["Add:/Add"]
    # Flatten has no layer: fused, so placed with the nearest named node upstream (the Add, on RKNN's CPU)
    assert (rows["/Flatten"]["npuready"], rows["/Flatten"]["rknn"], rows["/Flatten"]["rknn_layers"]) == \
        ("npu", "cpu", [])
    assert rows["/fc/Gemm"]["rknn"] == "npu" and "leaves Gemm to the CPU" in rows["/fc/Gemm"]["cause"]
    assert c["unmapped_layers"] == [{"layer": "Mystery:elsewhere", "target": "NPU"}]
    # a node npuready folds and librknnc has no layer for is folded on both sides
    folded = compare(NODES, {**devices, "/Flatten": "folded"}, layers)
    assert folded["nodes_folded_by_both"] == 1 and "/Flatten" not in {r["node"] for r in folded["disagreements"]}


def test_the_recorded_resnet20_table_agrees_with_the_rk3588_mirror():
    from npuready.experiments.runners.vendor_export import _placement_vs_rknn
    from npuready.graph import load
    from npuready.quant.zoo_qdq import zoo_path

    g = load(zoo_path("resnet20"))
    c = _placement_vs_rknn(g, "rk3588", [x.to_dict() for x in parse(LOG)])
    assert c["target"] == "rk3588" and c["nodes"] == sum(n.op_type != "Constant" for n in g.nodes)
    assert c["agreement"] == 1.0 and c["disagreements"] == [] and c["unmapped_layers"] == []
    assert [h["layer"] for h in c["cpu_helper_layers"]] == ["Reshape:logits_mm_tp_rs"]
    assert _placement_vs_rknn(g, "rk9999", []) is None  # no npuready target of that name
