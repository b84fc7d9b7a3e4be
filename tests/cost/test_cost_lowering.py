"""Vela's lowering of Softmax, LayerNormalization and activation x activation MatMul on the Ethos-U
mirrors (npuready.cost.lowering): op counts and tensor sizes per step, the lowered node's cost is the sum
of its steps' ordinary per-op costs, and targets without ``lowering = "vela"`` are unchanged."""
import dataclasses
import math

import numpy as np
import pytest
from onnx import helper, numpy_helper

from npuready.cost import estimate
from npuready.cost.lowering import lower
from npuready.cost.model import _memory, op_compute
from npuready.graph import load
from npuready.targets import load_target, target_names

from .conftest import make_model, vi, weight

HEADS, TOKENS, DIM = 2, 6, 8  # attention over 6 tokens, 2 heads of width 8
ROWS = HEADS * TOKENS


def _attention():
    """LayerNorm -> (q, k, v) -> q.k^T -> Softmax -> p.v: every lowered op once. The LayerNorm runs on the
    rank-3 token tensor (as in a ViT): Vela's MEAN reduces depth only when one of h, w, c is 1."""
    nodes = [
        helper.make_node("LayerNormalization", ["x", "g", "b"], ["n3"], name="ln", axis=-1),
        helper.make_node("Reshape", ["n3", "heads"], ["n"], name="heads"),
        helper.make_node("Transpose", ["n"], ["kt"], name="kt", perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["n", "kt"], ["s"], name="qk"),
        helper.make_node("Softmax", ["s"], ["p"], name="softmax", axis=-1),
        helper.make_node("MatMul", ["p", "n"], ["o"], name="pv"),
        helper.make_node("MatMul", ["o", "w"], ["y"], name="proj"),
    ]
    heads = numpy_helper.from_array(np.array([1, HEADS, TOKENS, DIM], np.int64), "heads")
    return load(make_model(nodes, [vi("x", [1, ROWS, DIM])], [vi("y", [1, HEADS, TOKENS, DIM])],
                           [weight("g", [DIM]), weight("b", [DIM], 1), weight("w", [DIM, DIM], 2), heads]))


def _node(graph, name):
    return next(n for n in graph.nodes if n.name == name)


def test_softmax_steps():
    g, t = _attention(), load_target("ethos-u55-128")
    steps = lower(g, _node(g, "softmax"), t)
    n = ROWS * TOKENS
    assert [s.vela_op for s in steps][:5] == ["MaxPool", "Sub", "LUT", "Asr", "ReduceSum"]
    assert [s.vela_op for s in steps][-3:] == ["Mul", "Add", "Asr"]
    assert len(steps) == 29 and sum(s.work.kind == "free" for s in steps) == 1
    reductions = [s for s in steps if s.work.kind == "pool"]
    assert [(s.work.kernel, s.work.ofm_elems, s.work.ifm_elems) for s in reductions] == [(TOKENS, ROWS, n)] * 2
    assert (reductions[0].work.m, reductions[0].work.n) == (ROWS, 1)  # the max: ROWS pixels of one channel
    full = [s for s in steps if s.work.kind == "elementwise" and s.work.ofm_elems == n]
    rows = [s for s in steps if s.work.kind == "elementwise" and s.work.ofm_elems == ROWS]
    assert len(full) == 5 and len(rows) == 21


def test_layer_norm_steps():
    g, t = _attention(), load_target("ethos-u55-128")
    steps = lower(g, _node(g, "ln"), t)
    n = ROWS * DIM
    assert [s.op for s in steps] == ["ReduceMean", "Sub", "Mul", "ReduceMean", "Add", "LUT", "Mul", "Mul", "Add"]
    assert [s.work.ofm_elems for s in steps] == [ROWS, n, n, ROWS, ROWS, 0, n, n, n]
    # scale and bias: constant operands read once per output element (npuready.cost.elementwise_block)
    assert [s.work.const_reads for s in steps] == [0, 0, 0, 0, 0, 0, 0, 1, 1]
    assert steps[-1].work.ofm_hwc == (1, ROWS, DIM)


def test_activation_matmul_steps_and_weight_matmul_untouched():
    g, t = _attention(), load_target("ethos-u55-128")
    qk = lower(g, _node(g, "qk"), t)
    products = HEADS * TOKENS * TOKENS * DIM
    assert [(s.op, s.work.kind) for s in qk] == [("Mul", "elementwise"), ("ReduceSum", "pool")]
    assert qk[0].work.ofm_elems == products
    assert (qk[1].work.kernel, qk[1].work.ofm_elems) == (DIM, HEADS * TOKENS * TOKENS)
    assert lower(g, _node(g, "pv"), t)[1].work.kernel == TOKENS
    assert lower(g, _node(g, "proj"), t) is None  # constant weights: FullyConnected on the MAC array


def test_each_matmul_column_pays_its_memory_latencies():
    g = _attention()
    # one ReduceSum per output column (TOKENS for q.k^T, DIM for p.v), each reading the int32 scratch and
    # writing SRAM: U55 scratch in SRAM (32 + 32), U65 scratch in DRAM (500 + 32)
    u55, u65 = load_target("ethos-u55-128"), load_target("ethos-u65-256")
    assert lower(g, _node(g, "qk"), u55)[1].work.fixed_cycles == TOKENS * 64
    assert lower(g, _node(g, "pv"), u55)[1].work.fixed_cycles == DIM * 64
    assert lower(g, _node(g, "qk"), u65)[1].work.fixed_cycles == TOKENS * 532
    assert lower(g, _node(g, "qk"), u65)[0].work.fixed_cycles == 0  # the Mul is an elementwise op: no prologue


def test_lowered_cost_is_the_sum_of_its_steps():
    g, t = _attention(), load_target("ethos-u65-256")
    layers = {lc.node: lc for lc in estimate(g, t).layers}
    for name in ("ln", "qk", "softmax", "pv"):
        expect = 0
        steps = lower(g, _node(g, name), t)
        for i, s in enumerate(steps):
            memory, _, dram = _memory(s.work, t)
            compute = op_compute(s.op, s.work, t)[0]
            if i + 1 < len(steps) and steps[i + 1].op == "LUT":  # the table runs in this step's output stage
                compute = max(compute, math.ceil(s.work.ofm_elems / t.lut_elems_per_cycle))
            expect += max(compute, memory) + (t.dram_latency_cycles if dram else 0) + s.work.fixed_cycles
        assert layers[name].device == "npu" and layers[name].cycles == expect, name


def test_one_channel_pool_pads_to_the_micro_block():
    g, t = _attention(), load_target("ethos-u55-128")
    row_max = lower(g, _node(g, "softmax"), t)[0]
    full = dataclasses.replace(row_max.work, m=0, n=0)  # same pass without a stated channel count
    # ROWS pixels in one column, each in a 1 x 2 x 8 micro-block of the U55-128: 2 x 8 lanes per pixel
    assert op_compute("ReduceMax", row_max.work, t)[0] == max(
        -(-ROWS * 2 * t.array_cols * TOKENS // int(t.pool_ops_per_cycle)), -(-ROWS // int(t.output_elems_per_cycle)))
    assert op_compute("ReduceMax", full, t)[0] < op_compute("ReduceMax", row_max.work, t)[0]


def test_lowering_off_costs_one_op():
    g = _attention()
    t = dataclasses.replace(load_target("ethos-u55-128"), lowering="none")
    assert all(lower(g, n, t) is None for n in g.nodes)
    layers = {lc.node: lc for lc in estimate(g, t).layers}
    # placement follows the target's [norms] declaration (LayerNorm lowered), not the cost model's lowering switch
    assert layers["ln"].device == "npu" and "lowered" not in layers["ln"].note
    assert "lowered" not in layers["softmax"].note


@pytest.mark.parametrize("name", [n for n in target_names() if not n.startswith("ethos-u")])
def test_only_the_vela_mirrors_lower(name):
    t = load_target(name)
    assert t.lowering == "none" and t.mul_elems_per_cycle is None
    g = _attention()
    assert all(lower(g, n, t) is None for n in g.nodes)


def test_int32_steps_use_their_own_output_rates():
    g, t = _attention(), load_target("ethos-u65-256")
    soft = lower(g, _node(g, "softmax"), t)
    assert [(s.work.ifm_bits, s.work.ofm_bits) for s in soft if s.op != "LUT"][:3] == [(8, 8), (8, 32), (32, 32)]
    assert (soft[-1].work.ifm_bits, soft[-1].work.ofm_bits) == (32, 8)
    asr = soft[3]  # int32 shift: outputCycles[1] = 1.125 cycles per element on the U65-256
    assert t.int32_elems_per_cycle == 0.8889
    assert op_compute(asr.op, asr.work, t)[0] == math.ceil(asr.work.ofm_elems / 0.8889)
    mul = lower(g, _node(g, "qk"), t)[0]  # int8 x int8 into the int32 scratch: outputCycles[2] = 0.5
    assert (mul.work.ofm_bits, mul.work.store_bits) == (32, 8)
    assert op_compute(mul.op, mul.work, t)[0] == -(-mul.work.ofm_elems // 2)


@pytest.mark.parametrize("alpha,steps", [(1 / 6, ["Add", "Mul"]), (0.2, ["Mul", "Add", "Mul"])])
def test_hard_sigmoid_is_lowered_on_the_vela_mirrors(alpha, steps):
    g = load(make_model([helper.make_node("HardSigmoid", ["x"], ["y"], name="hs", alpha=alpha)],
                        [vi("x", [1, 16, 4, 4])], [vi("y", [1, 16, 4, 4])], []))
    node = _node(g, "hs")
    lowered = lower(g, node, load_target("ethos-u55-128"))
    assert [s.vela_op for s in lowered] == steps
    assert all(s.work.kind == "elementwise" and s.work.ofm_elems == 256 for s in lowered)
    assert lower(g, node, load_target("edge-10")) is None
    layer = next(x for x in estimate(g, load_target("ethos-u55-128")).layers if x.node == "hs")
    assert layer.device == "npu"
