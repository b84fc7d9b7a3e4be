from onnx import TensorProto, helper
from rule_models import findings, ids, one

from npuready.lint import examples as ex


def test_symbolic_batch_is_flagged_on_input_output_and_intermediate():
    fs = findings(ex.conv_relu(shape=("N", 3, 16, 16)), "R001a")
    assert [(f.node, f.evidence["tensor"], f.evidence["axes"]) for f in fs] == [
        ("<graph>", "x", [0]), ("<graph>", "y", [0]), ("conv", "c", [0])]


def test_unknown_dim_is_flagged():
    m = ex.conv_relu(shape=(1, 3, None, 16))
    assert "R001a" in ids(m)


def test_fixed_batch_of_t_frames_is_static():
    assert "R001a" not in ids(ex.conv_relu(shape=(8, 3, 16, 16)))


def test_zero_sized_dim_is_static():
    m = one("Relu", [1, 0, 4], [1, 0, 4])
    assert ids(m) == []


def test_dims_downstream_of_data_dependent_op_are_not_reported_twice():
    m = ex.conv_relu(name="nz")
    m.graph.node.append(helper.make_node("NonZero", ["y"], ["idx"], name="nonzero"))
    m.graph.node.append(helper.make_node("Transpose", ["idx"], ["t"], name="transpose"))
    del m.graph.output[:]
    m.graph.output.append(ex.value("t", [None, 4], TensorProto.INT64))
    assert ids(m) == ["R002"]
