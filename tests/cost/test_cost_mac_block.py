"""The Ethos-U block search and block-pipeline fill/drain of MAC ops (npuready.cost.mac_block, after regor's
ArchEthosU55::FindBlockConfig and EthosU55Performance::EstimateMacOpCycles, ethos-u-vela 5.2.0)."""
import dataclasses

import pytest
from onnx import helper

from npuready.cost import estimate
from npuready.cost.mac_block import (MacOp, Memory, Shram, block_transfer_cycles, find_block, part_kernel,
                                     pipeline_cycles)
from npuready.cost.workload import workload
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi, weight

U55 = ((1, 2, 8), Shram(24, 4, 8))  # s_EthosU55Configs[Ethos_U55_128]
U65 = ((2, 2, 8), Shram(48, 8, 16))  # s_EthosU65Configs[Ethos_U65_256]
# A 28 x 28 x 1 image through conv 3x3 -> 16, maxpool 2, conv 3x3 -> 32, maxpool 2, conv 3x3 -> 64 and a
# 3136 -> 10 fully connected layer; the blocks are those Vela 5.2.0 records for such a network in its debug
# database (--enable-debug-db, table perf_debug_main: ofm_block_h/w/c, ifm_block_h/w/c)
LAYERS = (
    MacOp("conv", (28, 28, 1), (28, 28, 16), (3, 3)),
    MacOp("pool", (28, 28, 16), (14, 14, 16), (2, 2), (2, 2)),
    MacOp("conv", (14, 14, 16), (14, 14, 32), (3, 3)),
    MacOp("pool", (14, 14, 32), (7, 7, 32), (2, 2), (2, 2)),
    MacOp("conv", (7, 7, 32), (7, 7, 64), (3, 3)),
    MacOp("conv", (1, 1, 3136), (1, 1, 10)),
)
VELA_BLOCKS = {
    "u55": [((9, 14, 16), (11, 16, 8)), ((9, 6, 16), (18, 12, 16)), ((8, 8, 32), (10, 10, 16)),
            ((7, 8, 16), (14, 16, 16)), ((7, 8, 16), (9, 10, 32)), ((1, 2, 16), (1, 2, 32))],
    "u65": [((16, 16, 16), (18, 18, 8)), ((8, 14, 16), (16, 28, 16)), ((14, 14, 16), (16, 16, 16)),
            ((8, 8, 16), (16, 16, 16)), ((8, 8, 64), (10, 10, 32)), ((2, 2, 16), (2, 2, 32))],
}


@pytest.mark.parametrize("config", ["u55", "u65"])
def test_block_search_picks_the_blocks_vela_records(config):
    ublock, shram = U55 if config == "u55" else U65
    assert [find_block(op, ublock, shram) for op in LAYERS] == VELA_BLOCKS[config]


def test_part_kernel_first_for_shallow_inputs_only():
    assert part_kernel(1, 9) and part_kernel(16, 9)  # 16/16 x 9/12 = 0.75 >= 16/32
    assert not part_kernel(32, 9)  # 32/32 x 9/12 < 32/32


def test_block_transfer_is_latency_plus_burst_weighted_bytes():
    sram = Memory(32, 16.0, 32)
    # NHCWB16 read of a 10 x 10 x 32 IFM block clipped to 7 x 7 x 32: 16 x 10-byte bursts >= 32, 1568 bytes / 16
    assert block_transfer_cycles((7, 7, 32), (10, 10, 32), sram, read=True) == 32 + 1568 // 16
    dram = Memory(500, 12.0, 128, nhwc=True)
    # NHWC read of a 1-channel image with an 8-deep IFM block: 8-byte bursts of 128 -> 16 x the 18 x 18 bytes
    assert block_transfer_cycles((28, 28, 1), (18, 18, 8), dram, read=True) == 500 + int(324 * 16 / 12)
    # NHWC write of a 64-deep block: 16-byte bursts
    assert block_transfer_cycles((7, 7, 64), (8, 8, 64), Memory(250, 12.0, 128, nhwc=True), read=False) \
        == 250 + int(3136 * 8 / 12)
    assert block_transfer_cycles((7, 7, 64), (8, 8, 64), Memory(0, 16.0, 0), read=False) == 3136 // 16


def test_single_block_op_adds_the_command_limited_output_block_and_both_transfers():
    op, (ublock, shram) = LAYERS[4], U65
    sram = Memory(32, 16.0, 32)
    mac, ao = 4608, 7 * 7 * 64 // 4  # one block: MAC 4608 cycles, output stage 0.25 cycles per element
    cmd = (mac + ao) / 4  # one block: no |OFM - IFM| term
    ifm, ofm = 32 + 7 * 7 * 32 // 16, 32 + 7 * 7 * 64 // 16
    assert pipeline_cycles(mac, 0.25, op, ublock, shram, sram, sram) == int(mac + max(ao, cmd)) + ifm + ofm


def test_output_bound_op_adds_one_command_limited_mac_block():
    op, (ublock, shram) = MacOp("conv", (16, 16, 8), (16, 16, 64), (1, 1)), U65
    (bh, bw, bd), ifm_block = find_block(op, ublock, shram)
    mem = Memory(0, 16.0, 0)
    blocks = (8 * 8 * 8) / (-(-bh // 2) * -(-bw // 2) * -(-bd // 8))  # micro-blocks of the OFM / of one block
    assert blocks > 1
    mac, ao = 64 / blocks, bh * bw * bd  # MAC cycles per block; output stage 1 cycle per element
    ifm = block_transfer_cycles(op.ifm, ifm_block, mem, True)
    ofm = block_transfer_cycles(op.ofm, (bh, bw, bd), mem, False)
    cmd = (abs(ofm - ifm) + mac + ao) / 4  # the command issue limit lifts the short MAC stage
    assert ao > cmd > mac
    assert pipeline_cycles(64, 1.0, op, ublock, shram, mem, mem) == int(ao * blocks + cmd) + ifm + ofm


def _tiny_conv():
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])]
    return load(make_model(nodes, [vi("x", [1, 32, 7, 7])], [vi("y", [1, 64, 7, 7])], [weight("w", [64, 32, 3, 3])]))


def test_workload_carries_the_block_geometry():
    g = _tiny_conv()
    w = workload(g, g.nodes[0])
    assert w.mac_op == MacOp("conv", (7, 7, 32), (7, 7, 64), (3, 3), (1, 1), (1, 1))
    assert w.writes_graph_output and w.graph_input_elems == 7 * 7 * 32


@pytest.mark.parametrize("name", ["ethos-u55-128", "ethos-u65-256"])
def test_mirrors_add_fill_and_drain_to_the_mac_stage(name):
    g = _tiny_conv()
    t = load_target(name)
    on = estimate(g, t).layers[0].compute_cycles
    off = estimate(g, dataclasses.replace(t, shram_banks=0)).layers[0].compute_cycles
    assert on > off


def test_targets_without_shram_are_unchanged():
    g = _tiny_conv()
    t = load_target("edge-10")
    assert t.shram_banks == 0
    assert (estimate(g, t).layers[0].compute_cycles
            == estimate(g, dataclasses.replace(t, sram_burst_bytes=32)).layers[0].compute_cycles)


def test_maxpool_output_stage_runs_at_its_own_rate():
    nodes = [helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], strides=[2, 2])]
    g = load(make_model(nodes, [vi("x", [1, 16, 28, 28])], [vi("y", [1, 16, 14, 14])], []))
    t = load_target("ethos-u65-256")
    w = workload(g, g.nodes[0])
    assert w.mac_op == MacOp("pool", (28, 28, 16), (14, 14, 16), (2, 2), (2, 2), (1, 1))
    layer = estimate(g, t).layers[0]
    pool = 14 * 14 * 16 * 4 // 8  # max(4, 2 x 2) kernel-element steps at 8 per cycle
    dram = Memory(t.dram_latency_cycles, 12.0, 128, nhwc=True)
    out = Memory(t.dram_write_latency_cycles, 12.0, 128, nhwc=True)  # graph input and output stay in DRAM
    assert t.maxpool_output_elems_per_cycle == 8.0  # outputCycles[6] = 0.125, not the conv's 0.25
    assert layer.compute_cycles == pipeline_cycles(pool, 1 / 8.0, w.mac_op, *U65, dram, out)
