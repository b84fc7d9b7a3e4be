"""vendor-export's placement comparison: npuready's mirror placement beside the operators Vela left to the CPU."""
from npuready.cost.vela_placement import CpuOperator
from npuready.experiments.runners.vendor_export import _placement_vs_vela
from npuready.graph import load
from npuready.quant.zoo_qdq import zoo_path

GATE = "/blocks/blocks.0/blocks.0.0/se/gate/HardSigmoid"


def test_agreement_counts_every_node_and_lists_each_side():
    g = load(zoo_path("mobilenetv3_small_050_fm64"))
    nodes = sum(n.op_type != "Constant" for n in g.nodes)
    same = _placement_vs_vela(g, "ethos-u55-128", [])
    assert same["nodes"] == nodes and same["agreeing"] == nodes and same["agreement"] == 1.0
    # a GATHER table at the gate's output (and its CAST helper tensor) puts that one node on Vela's CPU
    ops = [CpuOperator("CAST", f"{GATE}_output_0#codes"), CpuOperator("GATHER", f"{GATE}_output_0")]
    one = _placement_vs_vela(g, "ethos-u55-128", ops)
    assert one["vela_cpu_npuready_npu"] == [GATE] and one["npuready_cpu_vela_npu"] == []
    assert one["agreeing"] == nodes - 1 and one["vela_cpu_unmapped"] == []
    # a tensor named under a node (a rewrite's helper) maps to that node; a name that matches none is listed
    under = _placement_vs_vela(g, "ethos-u55-128", [CpuOperator("GATHER", f"{GATE}/rstd"),
                                                    CpuOperator("CAST", "nowhere")])
    assert under["vela_cpu_npuready_npu"] == [GATE] and under["vela_cpu_unmapped"] == ["nowhere"]
    # nnapi-mirror leaves HardSigmoid/HardSwish to the CPU: the gate agrees, the others are listed
    nnapi = _placement_vs_vela(g, "nnapi-mirror", ops)
    assert GATE not in nnapi["npuready_cpu_vela_npu"] and nnapi["vela_cpu_npuready_npu"] == []
    assert nnapi["agreeing"] == nodes - len(nnapi["npuready_cpu_vela_npu"])
