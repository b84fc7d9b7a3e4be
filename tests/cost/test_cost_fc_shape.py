"""A fully connected layer over many rows (a ViT's tokens) runs on an Ethos-U as a near-square image
(regor GraphIrOptimiser::RewriteFullyConnected), which sets how many micro-blocks cover its output."""
import dataclasses

from onnx import helper

from npuready.cost import estimate
from npuready.cost.workload import fc_ofm_hwc, workload
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi, weight


def test_rows_become_a_near_square_image():
    assert fc_ofm_hwc(1, 10) == (1, 1, 10)
    assert fc_ofm_hwc(49, 192) == (7, 7, 192)  # W = max(49 // 16, ceil(sqrt 49)) = 7
    assert fc_ofm_hwc(50, 8) == (5, 10, 8)  # W starts at 8 and rises to the first divisor, 10
    assert fc_ofm_hwc(197, 8) == (1, 197, 8)  # a prime row count stays one row
    assert fc_ofm_hwc(1000, 8) == (10, 100, 8)  # W = max(1000 // 16 = 62, 32) -> 100


def _fc(rows: int):
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="fc")]
    return load(make_model(nodes, [vi("x", [1, rows, 64])], [vi("y", [1, rows, 192])], [weight("w", [64, 192])]))


def test_token_fc_micro_blocks_on_the_u65_mirror():
    g = _fc(49)
    assert workload(g, g.nodes[0]).ofm_hwc == (7, 7, 192)
    mac_stage_only = dataclasses.replace(load_target("ethos-u65-256"), shram_banks=0)  # no block fill/drain
    layer = estimate(g, mac_stage_only).layers[0]
    # 24 column tiles x 2 channel blocks x max(32-cycle weight load, 4 cycles x 4 x 4 micro-blocks of 2 x 2)
    assert layer.compute_cycles == 24 * 2 * 4 * 16
