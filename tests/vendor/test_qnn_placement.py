"""npuready's per-node placement beside the QNN EP's: refused and CPU nodes by name, folded nodes apart."""
from dataclasses import dataclass

from npuready.vendor.qnn_placement import compare


@dataclass
class N:
    name: str
    op_type: str


NODES = [N("conv", "Conv"), N("erf", "Erf"), N("shape", "Shape"), N("k", "Constant"), N("mm", "MatMul")]


def test_refusals_and_cpu_nodes_are_htp_cpu_and_each_disagreement_says_why():
    placement = {"qnn_partitions": 2, "cpu_nodes": [{"op_type": "Erf", "node": "erf"},
                                                    {"op_type": "QuantizeLinear", "node": "erf_QuantizeLinear"},
                                                    {"op_type": "MatMul", "node": "mm"}],
                 "refused": [{"node": "erf", "op_type": "Erf", "reason": "Operators of type `Erf` are not supported."}]}
    devices = {"conv": "cpu", "erf": "npu", "shape": "folded", "mm": "cpu"}
    c = compare(NODES, devices, placement)
    assert (c["nodes"], c["agreeing"], c["nodes_folded_by_both"]) == (4, 2, 1)  # the Constant is left out
    rows = {r["node"]: r for r in c["disagreements"]}
    assert set(rows) == {"conv", "erf"}
    assert rows["erf"]["cause"] == "Operators of type `Erf` are not supported." and rows["erf"]["htp"] == "cpu"
    assert rows["conv"]["htp"] == "npu" and "leaves Conv to the CPU" in rows["conv"]["cause"]
    assert c["htp_cpu_not_float_nodes"] == ["erf_QuantizeLinear"]


def test_a_cpu_node_without_a_refusal_names_onnxruntime():
    placement = {"qnn_partitions": 1, "cpu_nodes": [{"op_type": "MatMul", "node": "mm"}], "refused": []}
    c = compare(NODES, {}, placement)
    assert [r["node"] for r in c["disagreements"]] == ["mm"] and "no refusal logged" in c["disagreements"][0]["cause"]
