"""Ethos-U mirrors: micro-blocks cover a conv output's height and width separately (regor
EstimateMacCyclesPerBlock), and on the U65 mirror the graph input is read from DRAM in block-depth bursts
(Dedicated_Sram keeps the arena in DRAM; EstimateMemoryTransfer)."""
import dataclasses

from onnx import helper

from npuready.cost import estimate
from npuready.cost.model import graph_input_bytes, ublock_tiles
from npuready.cost.workload import workload
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi, weight


def _conv(cin, cout, size, k=3):
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", kernel_shape=[k, k])]
    out = size - k + 1
    return load(make_model(nodes, [vi("x", [1, cin, size, size])], [vi("y", [1, cout, out, out])],
                           [weight("w", [cout, cin, k, k])]))


def test_micro_blocks_cover_height_and_width_separately():
    g = _conv(32, 64, 9)  # 7 x 7 output
    w = workload(g, g.nodes[0])
    assert w.ofm_hwc == (7, 7, 64)
    assert ublock_tiles(w, load_target("ethos-u65-256")) == 16  # ceil(7/2) x ceil(7/2), not ceil(49/4) = 13
    assert ublock_tiles(w, load_target("ethos-u55-128")) == 28  # 7 x ceil(7/2)
    assert ublock_tiles(w, load_target("edge-10")) == 0


def test_conv_cycles_use_the_micro_block_count():
    g = _conv(32, 64, 9)
    mac_stage_only = dataclasses.replace(load_target("ethos-u65-256"), shram_banks=0)  # no block fill/drain
    layer = estimate(g, mac_stage_only).layers[0]
    # 8 column tiles x 9 kernel steps x 1 channel block x max(32-cycle weight load, 4 cycles x 16 micro-blocks)
    assert layer.compute_cycles == 8 * 9 * 64


def test_graph_input_is_read_from_dram_on_the_u65_mirror_only():
    g = _conv(3, 8, 16)
    w = workload(g, g.nodes[0])
    assert (w.graph_input_elems, w.graph_input_channels) == (768, 3)
    # 3 channels: 8-deep IFM block -> 8-byte bursts against 128-byte DRAM bursts = 16 bytes per element
    assert graph_input_bytes(w, load_target("ethos-u65-256")) == 768 * 16
    assert graph_input_bytes(w, load_target("ethos-u55-128")) == 0
