import numpy as np
import pytest
from onnx import TensorProto, helper
from rule_models import findings, ids, one, wrap_in_if

from npuready.lint import examples as ex
from npuready.lint.registry import RULES

X5 = [1, 4, 4, 8, 8]


@pytest.mark.parametrize("op,attrs", [("MaxPool", {}), ("AveragePool", {}), ("LpPool", {"p": 2})])
def test_3d_pooling_is_flagged(op, attrs):
    m = one(op, X5, [1, 4, 3, 7, 7], {"kernel_shape": [2, 2, 2], **attrs})
    (f,) = findings(m, "R003")
    assert (f.op_type, f.evidence["value"], f.evidence["limit"]) == (op, 3, 2)


@pytest.mark.parametrize("op,expected", [("MaxPool", []), ("AveragePool", []), ("LpPool", ["R009"])])
def test_2d_pooling_passes(op, expected):
    # no R003; edge-10 declares no LpPool, so R009 says it runs on the host
    assert ids(one(op, [1, 64, 8, 8], [1, 64, 7, 7], {"kernel_shape": [2, 2]})) == expected


def test_conv_transpose_3d_without_kernel_shape_attribute_is_flagged_from_weight_rank():
    m = ex.model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv3d")],
                 [ex.value("x", [1, 64, 2, 4, 4])], [ex.value("y", [1, 64, 4, 6, 6])],
                 [ex.weights("w", (64, 64, 3, 3, 3))])
    assert ids(m) == ["R003"]


def test_3d_conv_inside_if_branch_is_flagged_with_its_scope():
    (f,) = findings(wrap_in_if(RULES["R003"].bad_example()), "R003")
    assert (f.node, f.graph) == ("conv3d", "if.then_branch")


def _scan_with_pool():
    body = helper.make_graph(
        [helper.make_node("MaxPool", ["frame"], ["pooled"], name="pool3d", kernel_shape=[2, 2, 2])],
        "body", [helper.make_tensor_value_info("frame", TensorProto.FLOAT, [1, 4, 4, 8, 8])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, [1, 4, 3, 7, 7])])
    scan = helper.make_node("Scan", ["x"], ["y"], name="scan", body=body, num_scan_inputs=1)
    return ex.model([scan], [ex.value("x", [2, 1, 4, 4, 8, 8])], [ex.value("y", [2, 1, 4, 3, 7, 7])])


def _loop_with_conv3d():
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep"),
         helper.make_node("Conv", ["v", "w"], ["v_out"], name="conv3d", kernel_shape=[1, 1, 1])],
        "body", [helper.make_tensor_value_info("i", TensorProto.INT64, []),
                 helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
                 helper.make_tensor_value_info("v", TensorProto.FLOAT, [1, 64, 2, 4, 4])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [1, 64, 2, 4, 4])],
        initializer=[ex.weights("w", (64, 64, 1, 1, 1))])
    loop = helper.make_node("Loop", ["M", "", "x"], ["y"], name="loop", body=body)
    return ex.model([loop], [ex.value("x", [1, 64, 2, 4, 4])], [ex.value("y", [1, 64, 2, 4, 4])],
                    [ex.const("M", np.array(2, np.int64))])


def test_3d_pool_inside_scan_body_is_flagged():
    (f,) = findings(_scan_with_pool(), "R003")
    assert (f.node, f.graph) == ("pool3d", "scan.body")


def test_3d_conv_inside_loop_body_is_flagged():
    (f,) = findings(_loop_with_conv3d(), "R003")
    assert (f.node, f.graph) == ("conv3d", "loop.body")
