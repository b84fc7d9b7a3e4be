"""Ops Vela runs as 1x1 pooling passes on the Ethos-U mirrors (regor ArchEthosU55::UseAvgPoolNop):
Concat inputs (Quantize/MemoryCopy), Slice/Split outputs, Pad, and the min-4-step pooling floor."""
import numpy as np
from onnx import helper, numpy_helper

from npuready.cost import estimate
from npuready.cost.lowering import lower
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi, weight


def _graph():
    nodes = [helper.make_node("Conv", ["x", "w"], ["a"], name="conv", kernel_shape=[1, 1]),
             helper.make_node("Concat", ["a", "x"], ["c"], name="cat", axis=1),
             helper.make_node("Slice", ["c", "st", "en", "ax"], ["s"], name="slice"),
             helper.make_node("Pad", ["s", "pads"], ["y"], name="pad")]
    consts = [weight("w", [8, 8, 1, 1])] + [numpy_helper.from_array(np.array(v, dtype=np.int64), n) for n, v in
                                            (("st", [0]), ("en", [4]), ("ax", [1]), ("pads", [0, 0, 1, 1, 0, 0, 1, 1]))]
    return load(make_model(nodes, [vi("x", [1, 8, 8, 8])], [vi("y", [1, 4, 10, 10])], consts))


def test_nop_pass_steps():
    g, t = _graph(), load_target("ethos-u55-128")
    steps = {n.name: lower(g, n, t) for n in g.nodes if n.name in ("cat", "slice", "pad")}
    assert [(s.vela_op, s.work.ofm_elems, s.work.kernel) for s in steps["cat"]] == [("Quantize", 512, 1)] * 2
    assert [(s.vela_op, s.work.ofm_elems) for s in steps["slice"]] == [("MemoryCopy", 256)]
    assert [(s.vela_op, s.work.ofm_elems) for s in steps["pad"]] == [("MemoryCopy", 400)]


def test_nop_pass_cycles_use_the_four_step_floor():
    g = _graph()
    for name, rate in (("ethos-u55-128", 4), ("ethos-u65-256", 8)):
        layers = {lc.node: lc for lc in estimate(g, name).layers}
        # 4 kernel-element steps per element (max(4, 1)) at `rate` steps per cycle, per pass
        assert layers["cat"].compute_cycles == 2 * 512 * 4 // rate
        assert layers["slice"].compute_cycles == 256 * 4 // rate
        assert layers["pad"].compute_cycles == 400 * 4 // rate


def test_other_targets_do_not_lower_them():
    g = _graph()
    assert all(lower(g, n, load_target("edge-10")) is None for n in g.nodes)


def _gelu(after_add: bool):
    c = [numpy_helper.from_array(np.array(v, dtype=np.float32), n) for n, v in
         (("sq2", 1.4142135), ("one", 1.0), ("half", 0.5), ("b", np.zeros(16)))]
    first = (helper.make_node("Add", ["x", "b"], ["a"], name="bias") if after_add
             else helper.make_node("Concat", ["x"], ["a"], name="cat", axis=1))
    nodes = [first,
             helper.make_node("Div", ["a", "sq2"], ["d"], name="div"),
             helper.make_node("Erf", ["d"], ["e"], name="erf"),
             helper.make_node("Add", ["e", "one"], ["p"], name="plus"),
             helper.make_node("Mul", ["a", "p"], ["m"], name="mul"),
             helper.make_node("Mul", ["m", "half"], ["y"], name="half_mul")]
    return load(make_model(nodes, [vi("x", [1, 8, 16])], [vi("y", [1, 8, 16])], c))


def test_exact_gelu_is_one_lookup_table():
    t = load_target("ethos-u55-128")
    fused = {lc.node: lc for lc in estimate(_gelu(True), t).layers}
    # in the bias Add's output stage: the five pattern nodes cost nothing of their own
    assert [fused[n].cycles for n in ("div", "erf", "plus", "mul", "half_mul")] == [0] * 5
    alone = {lc.node: lc for lc in estimate(_gelu(False), t).layers}
    # after a Concat (no output stage to join) the last node is one 1x1 pooling pass over 128 elements
    assert [alone[n].compute_cycles for n in ("div", "erf", "plus", "mul")] == [0] * 4
    assert alone["half_mul"].compute_cycles == 128 * 4 // 4
