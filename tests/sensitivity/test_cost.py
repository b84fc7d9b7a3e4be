"""``sensitivity.cost``: a kept-float layer and its Relu move to the CPU; the plan and cost are re-derived."""
from __future__ import annotations

from npuready.sensitivity.cost import KeepFloatCost
from sens_tiny import tiny_model


def test_a_middle_layer_kept_float_splits_the_npu_body():
    k = KeepFloatCost(tiny_model(), "edge-10")
    assert k.base.segments == 1 and k.base.cpu_nodes == ()
    none = k.delta([])
    assert (none.extra_cycles, none.extra_transfer_bytes, none.extra_segments) == (0, 0, 0)
    c2 = k.of(["c2"])
    assert c2.cpu_nodes == ("c2", "relu2")
    d = k.delta(["c2"])
    assert d.extra_segments == 2 and d.how == "cpu"
    # r1 (4×8×8 int8) crosses NPU→CPU and r2 crosses CPU→NPU
    assert d.extra_transfer_bytes == 2 * 4 * 8 * 8
    assert d.extra_cycles == c2.cycles - k.base.cycles and d.extra_cycles > 0
