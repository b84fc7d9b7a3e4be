"""The cost model uses resolved shapes: shape computations are folded (0 cycles), MAC layers are costed."""
from npuready.cost import estimate
from npuready.cost.render import to_text
from npuready.graph import load
from npuready.graph.pins import ShapePins

import shape_patterns as sp


def test_convolution_after_a_chunk_is_costed_on_the_npu():
    report = estimate(sp.chunk_conv())
    conv = next(la for la in report.layers if la.node == "conv")
    assert (conv.device, conv.macs) == ("npu", 1 * 6 * 5 * 5 * 4)
    assert report.macs == 600
    folded = {la.node for la in report.layers if la.device == "folded"}
    assert folded == {"shape", "gather_c", "add", "div", "mul", "axis1", "one", "two", "zero"}
    assert all(la.cycles == 0 for la in report.layers if la.device == "folded")


def test_cls_token_model_costs_its_matmul():
    report = estimate(sp.cls_token())
    proj = next(la for la in report.layers if la.node == "proj")
    assert (proj.device, proj.macs) == ("npu", 5 * 8 * 8)


def test_report_counts_folded_shape_ops_and_pins():
    report = estimate(load(sp.chunk_conv("batch"), pins=ShapePins(batch=1)))
    assert report.shapes == {"shape_ops_folded": 5, "folded_nodes": 9, "unresolved_values": 0, "pinned": "--batch 1"}
    assert report.to_dict()["shapes"] == report.shapes
    assert ("shapes: 5 shape op(s) folded (9 node(s) known before inference); pinned --batch 1"
            in " ".join(to_text(report).split()))
