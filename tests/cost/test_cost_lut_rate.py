"""A lookup-table activation in an Ethos-U output stage runs at ``lut_elems_per_cycle`` (regor
EstimateAOCyclesPerElement: the larger of the op's and the activation's cycles per element); one that
does not fuse is a 1x1 pooling pass (regor UseAvgPoolNop; EstimateMacCyclesPerBlock: max(4, kernel)
kernel-element steps at pool_ops_per_cycle)."""
import pytest
from onnx import helper

from npuready.cost import estimate
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi, weight


def _conv_sigmoid(channels=16, size=8):
    nodes = [helper.make_node("Conv", ["x", "w"], ["a"], name="conv", kernel_shape=[1, 1]),
             helper.make_node("Sigmoid", ["a"], ["y"], name="sig")]
    shape = [1, channels, size, size]
    return load(make_model(nodes, [vi("x", shape)], [vi("y", shape)], [weight("w", [channels, channels, 1, 1])]))


@pytest.mark.parametrize("name,cycles", [("ethos-u55-128", 1024), ("ethos-u65-256", 512)])
def test_standalone_sigmoid_is_a_one_by_one_pooling_pass(name, cycles):
    t = load_target(name)
    assert (t.pool_min_kernel, t.pool_ops_per_cycle) == (4, {"ethos-u55-128": 4.0, "ethos-u65-256": 8.0}[name])
    sig = next(lc for lc in estimate(_conv_sigmoid(), t).layers if lc.node == "sig")
    # 16 x 8 x 8 = 1024 elements x 4 steps / (4 or 8 kernel elements per cycle); memory: 2048 B through SRAM
    assert (sig.compute_cycles, sig.cycles, sig.bound) == (cycles, cycles, "compute")


def test_targets_without_the_field_keep_their_vector_rate():
    t = load_target("edge-10")
    assert t.lut_elems_per_cycle is None
    sig = next(lc for lc in estimate(_conv_sigmoid(), t).layers if lc.node == "sig")
    assert sig.compute_cycles == -(-1024 // t.vector_lanes)
