"""Vela's split of a grouped Conv on the Ethos-U mirrors (npuready.cost.lowering, after regor's
TFLiteGraphOptimiser::ConvertConvolutionGroup): one conv per group on its depth slice, plus group - 1
elementwise concat copies; depthwise convs and targets without ``lowering = "vela"`` are unchanged."""
import pytest
from onnx import helper

from npuready.cost import estimate
from npuready.cost.lowering import lower
from npuready.cost.model import _memory, op_compute
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi, weight

MIRRORS = ("ethos-u55-128", "ethos-u65-256")


def _grouped(cin=16, cout=16, group=4, size=8):
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                            group=group)
    inits = [weight("w", [cout, cin // group, 3, 3]), weight("b", [cout], 1)]
    return load(make_model([node], [vi("x", [1, cin, size, size])], [vi("y", [1, cout, size, size])], inits))


@pytest.mark.parametrize("name", MIRRORS)
def test_grouped_conv_is_one_conv_per_group_plus_concat_copies(name):
    g = _grouped()
    steps = lower(g, g.nodes[0], load_target(name))
    assert [s.vela_op for s in steps] == ["Conv2D"] * 4 + ["Quantize"] * 3
    w = steps[0].work
    assert (w.kind, w.groups, w.m, w.k, w.n, w.kernel, w.cin_per_group) == ("gemm", 1, 64, 36, 4, 9, 4)
    assert (w.ofm_elems, w.ifm_elems, w.weight_bytes) == (256, 256, 4 * 4 * 9 + 4 * 4)
    copy = steps[-1].work
    assert (copy.kind, copy.ofm_elems, copy.ifm_elems) == ("elementwise", 256, 256)
    assert sum(s.work.macs for s in steps) == estimate(g, name).layers[0].macs == 64 * 16 * 36


def test_grouped_conv_cycles_are_the_sum_of_its_steps():
    g = _grouped()
    t = load_target("ethos-u55-128")
    steps = lower(g, g.nodes[0], t)
    expected = sum(max(op_compute(s.op, s.work, t)[0], _memory(s.work, t)[0])
                   + (t.dram_latency_cycles if _memory(s.work, t)[2] else 0) for s in steps)
    layer = estimate(g, t).layers[0]
    # per group: part-kernel-first, 3 steps of max(weight load 32, 4 x 32 two-pixel micro-blocks) = 384
    # cycles + 64 cycles flash latency (weights); each copy: 512 B through SRAM at 8 B/cycle = 64
    assert layer.cycles == expected == 4 * (384 + 64) + 3 * 64
    assert layer.note.startswith("lowered (vela): 7 NPU ops")


def test_depthwise_and_other_targets_are_not_split():
    dw = _grouped(cin=16, cout=16, group=16)
    assert lower(dw, dw.nodes[0], load_target("ethos-u55-128")) is None
    g = _grouped()
    assert lower(g, g.nodes[0], load_target("edge-10")) is None
