"""A lookup-table activation in an Ethos-U output stage runs at ``lut_elems_per_cycle`` (regor
EstimateAOCyclesPerElement: the larger of the op's and the activation's cycles per element)."""
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


@pytest.mark.parametrize("name", ["ethos-u55-128", "ethos-u65-256"])
def test_sigmoid_layer_runs_one_element_per_cycle(name):
    t = load_target(name)
    assert t.lut_elems_per_cycle == 1.0
    sig = next(lc for lc in estimate(_conv_sigmoid(), t).layers if lc.node == "sig")
    # 16 x 8 x 8 = 1024 elements at 1 per cycle; memory: 2048 B through SRAM (U55 8 B/cycle, U65 16 B/cycle)
    assert (sig.compute_cycles, sig.cycles, sig.bound, sig.note) == (1024, 1024, "compute", "lookup table")


def test_targets_without_the_field_keep_their_vector_rate():
    t = load_target("edge-10")
    assert t.lut_elems_per_cycle is None
    sig = next(lc for lc in estimate(_conv_sigmoid(), t).layers if lc.node == "sig")
    assert sig.compute_cycles == -(-1024 // t.vector_lanes)
