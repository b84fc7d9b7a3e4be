"""Vela's unrolling of a Conv whose stride exceeds 3 on the Ethos-U mirrors (npuready.cost.lowering,
after regor's GraphIrOptimiser::UnrollKernelStrides): one stride-1 conv per output pixel, each priced
as an ordinary conv; stride <= 3 convs and targets without ``lowering = "vela"`` are unchanged."""
import dataclasses

import pytest
from onnx import helper

from npuready.cost import estimate
from npuready.cost.lowering import lower
from npuready.cost.model import _memory, op_compute
from npuready.graph import load
from npuready.targets import load_target, target_names

from .conftest import make_model, vi, weight

MIRRORS = ("ethos-u55-128", "ethos-u65-256")
CIN, COUT = 3, 8


def _conv(size=(16, 16), kernel=(4, 4), strides=(4, 4), batch=1, bias=True, **attrs):
    """One Conv CIN -> COUT on a ``size`` input."""
    inputs = ["x", "w", "b"] if bias else ["x", "w"]
    node = helper.make_node("Conv", inputs, ["y"], name="conv", kernel_shape=list(kernel), strides=list(strides),
                            **attrs)
    inits = [weight("w", [COUT, CIN, *kernel])]
    if bias:
        inits.append(weight("b", [COUT], 1))
    y = vi("y", [batch, COUT, *_out(size, kernel, strides, attrs)])
    return load(make_model([node], [vi("x", [batch, CIN, *size])], [y], inits))


def _out(size, kernel, strides, attrs):
    if attrs.get("auto_pad", "NOTSET").startswith("SAME"):
        return [-(-i // s) for i, s in zip(size, strides)]
    pads = attrs.get("pads", [0, 0, 0, 0])
    dil = attrs.get("dilations", [1, 1])
    return [(i + pads[a] + pads[a + 2] - d * (k - 1) - 1) // s + 1
            for a, (i, k, s, d) in enumerate(zip(size, kernel, strides, dil))]


def _node(graph):
    return next(n for n in graph.nodes if n.name == "conv")


@pytest.mark.parametrize("name", MIRRORS)
def test_stride_4_conv_is_one_conv_per_output_pixel(name):
    g = _conv()  # 16x16 input, 4x4 kernel, stride 4 -> 4x4 output pixels
    steps = lower(g, _node(g), load_target(name))
    assert len(steps) == 4 * 4
    assert {(s.op, s.vela_op) for s in steps} == {("Conv", "Conv2D")}
    w = steps[0].work
    assert (w.kind, w.m, w.k, w.n, w.kernel, w.cin_per_group) == ("gemm", 1, CIN * 16, COUT, 16, CIN)
    assert (w.ofm_elems, w.ifm_elems) == (COUT, CIN * 16)  # one output pixel; one kernel window of input
    assert w.weight_bytes == COUT * CIN * 16 + 4 * COUT  # every step streams the whole weights + int32 bias
    assert sum(s.work.macs for s in steps) == estimate(g, name).layers[0].macs


def test_batches_multiply_the_steps():
    g = _conv(batch=2)
    assert len(lower(g, _node(g), load_target("ethos-u55-128"))) == 2 * 4 * 4


@pytest.mark.parametrize("name", MIRRORS)
def test_unrolled_cost_is_the_sum_of_ordinary_single_pixel_convs(name):
    # lowered steps carry no block geometry, so the block pipeline's fill and drain (npuready.cost.mac_block)
    # is not charged per step; compare with it off
    t = dataclasses.replace(load_target(name), shram_banks=0)
    g = _conv()
    layer = estimate(g, t).layers[0]
    assert layer.device == "npu" and layer.note.startswith("lowered (vela): 16 NPU ops")
    # one step = the ordinary cost of the same conv on a single kernel window (stride 1, 1x1 output)
    single = estimate(_conv(size=(4, 4), strides=(1, 1)), t).layers[0]
    assert single.macs * 16 == layer.macs and "lowered" not in single.note
    assert layer.cycles == 16 * single.cycles
    expect = 0
    for s in lower(g, _node(g), t):
        memory, _, dram = _memory(s.work, t)
        expect += max(op_compute(s.op, s.work, t)[0], memory) + (t.dram_latency_cycles if dram else 0)
    assert layer.cycles == expect


@pytest.mark.parametrize("strides", [(1, 1), (2, 2), (3, 3), (3, 1)])
def test_hardware_strides_are_not_lowered(strides):
    g = _conv(kernel=(3, 3), strides=strides)
    for name in MIRRORS:
        assert lower(g, _node(g), load_target(name)) is None
        assert "lowered" not in estimate(g, name).layers[0].note


@pytest.mark.parametrize("name", [n for n in target_names() if not n.startswith("ethos-u")])
def test_other_targets_cost_one_conv(name):
    g = _conv()
    assert lower(g, _node(g), load_target(name)) is None
    assert "lowered" not in estimate(g, name).layers[0].note


def test_stride_on_a_one_wide_output_axis_counts_as_one():
    t = load_target("ethos-u55-128")
    g = _conv(size=(4, 16))  # output 1 x 4: only the width stride is real
    assert len(lower(g, _node(g), t)) == 4
    g = _conv(size=(4, 4))  # output 1 x 1: stride has no effect, nothing to unroll
    assert lower(g, _node(g), t) is None


@pytest.mark.parametrize("attrs", [
    {"pads": [1, 1, 1, 1]},  # padding: regor does not unroll (left to the CPU on U55/U65; not modelled)
    {"dilations": [2, 2]},
    {"auto_pad": "SAME_UPPER"},  # 14 wide, stride 4, kernel 4: SAME needs padding
])
def test_only_unpadded_undilated_convs_are_unrolled(attrs):
    g = _conv(size=(14, 14), **attrs)
    assert lower(g, _node(g), load_target("ethos-u55-128")) is None


def test_same_padding_that_pads_nothing_is_unrolled():
    g = _conv(auto_pad="SAME_UPPER")  # 16 wide, stride 4, kernel 4: no padding needed
    assert len(lower(g, _node(g), load_target("ethos-u55-128"))) == 16


def test_unrolled_without_bias():
    g = _conv(bias=False)
    steps = lower(g, _node(g), load_target("ethos-u65-256"))
    assert len(steps) == 16 and steps[0].work.weight_bytes == COUT * CIN * 16
