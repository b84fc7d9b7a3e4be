"""Vela's Transpose on the Ethos-U mirrors (npuready.cost.transpose, after regor's DecomposeTranspose /
SwapAxes and EstimateMemoryTransfer): the native 3-D swaps a permutation becomes, the bytes each swap moves
in whole SRAM bursts, and the lowered node; targets without ``sram_burst_bytes`` are unchanged."""
import dataclasses

import pytest
from onnx import helper

from npuready.cost import estimate
from npuready.cost.lowering import lower
from npuready.cost.transpose import is_noop, swap_transfer_bytes, transpose_swaps
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi

MIRRORS = ("ethos-u55-128", "ethos-u65-256")


def test_channel_shuffle_is_five_swaps():
    # [1, g, C/g, H, W] -> [1, C/g, g, H, W]: move g leftmost, move C/g rightmost, swap the edges, move both back
    assert transpose_swaps((1, 2, 58, 16, 16), (0, 2, 1, 3, 4)) == [
        ((1, 2, 14848), (0, 1)), ((2, 58, 256), (1, 2)), ((2, 256, 58), (0, 2)), ((58, 256, 2), (1, 2)),
        ((58, 1, 512), (0, 1))]


def test_layout_rotations_are_two_swaps_and_native_masks_one():
    assert transpose_swaps((1, 16, 16, 116), (0, 3, 1, 2)) == [((16, 16, 116), (0, 2)), ((116, 16, 16), (1, 2))]
    assert transpose_swaps((1, 58, 16, 16), (0, 2, 3, 1)) == [((58, 16, 16), (0, 1)), ((16, 58, 16), (1, 2))]
    assert transpose_swaps((1, 8, 12, 16), (0, 2, 1, 3)) == [((8, 12, 16), (0, 1))]  # NWHC
    assert transpose_swaps((12, 16), (1, 0)) == [((1, 12, 16), (1, 2))]  # 2-D: NHCW of a padded shape


def test_selection_sort_of_a_batched_permutation():
    # regor's own example (scheduler_decompose.cpp): [3, 7, 11, 13] by [1, 3, 0, 2] -> [7, 13, 3, 11]
    swaps = transpose_swaps((3, 7, 11, 13), (1, 3, 0, 2))
    assert len(swaps) == 5
    assert all(len(ifm) == 3 and a < b for ifm, (a, b) in swaps)
    assert all(ifm[0] * ifm[1] * ifm[2] == 3 * 7 * 11 * 13 for ifm, _ in swaps)


def test_identity_up_to_unit_axes_is_no_op():
    assert is_noop((1, 4, 1, 8), (2, 1, 0, 3))
    assert transpose_swaps((1, 4, 1, 8), (2, 1, 0, 3)) == []
    assert not is_noop((1, 4, 2, 8), (0, 2, 1, 3))


@pytest.mark.parametrize("name", MIRRORS)
def test_swap_bursts(name):
    t = load_target(name)
    # deep IFM: 32-byte reads, 16-byte writes (min(16 x cores, OFM block depth)) on a 32-byte-burst SRAM
    assert swap_transfer_bytes((2, 58, 256), (1, 2), t) == (29696, 2 * 29696)
    # IFM depth 2: block depth 8 for both the read and the write burst -> 4 x
    assert swap_transfer_bytes((58, 256, 2), (1, 2), t) == (4 * 29696, 4 * 29696)
    # IFM and OFM depth 16 = block depth: contiguous block rows, whole bursts both ways
    assert swap_transfer_bytes((116, 16, 16), (1, 2), t) == (29696, 29696)


def _transpose_model(shape, perm):
    out = [shape[p] for p in perm]
    node = helper.make_node("Transpose", ["x"], ["y"], name="t", perm=list(perm))
    return load(make_model([node], [vi("x", list(shape))], [vi("y", out)], []))


def test_lowered_transpose_costs_its_swaps_through_sram():
    g = _transpose_model((1, 2, 58, 16, 16), (0, 2, 1, 3, 4))
    t = load_target("ethos-u55-128")
    steps = lower(g, g.nodes[0], t)
    assert [s.vela_op for s in steps] == ["Transpose"] * 5
    layer = estimate(g, t).layers[0]
    # 4 swaps move 29696 + 59392 bytes, the depth-2 one 2 x 118784, at 8 bytes per cycle (4 GB/s, 500 MHz)
    assert layer.cycles == (4 * (29696 + 59392) + 2 * 118784) // 8
    assert layer.note.startswith("lowered (vela): 5 NPU ops")


def test_other_targets_and_no_burst_field_are_unchanged():
    g = _transpose_model((1, 2, 58, 16, 16), (0, 2, 1, 3, 4))
    assert lower(g, g.nodes[0], load_target("edge-10")) is None
    no_burst = dataclasses.replace(load_target("ethos-u55-128"), sram_burst_bytes=0)
    assert lower(g, g.nodes[0], no_burst) is None
