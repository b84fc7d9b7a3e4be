import numpy as np
from onnx import TensorProto, helper
from rule_models import const_i64, findings, ids, one

from npuready.lint import examples as ex


def _i64(name, shape):
    return ex.value(name, shape, TensorProto.INT64)


def test_topk_with_runtime_k_is_flagged_and_constant_k_passes():
    runtime = ex.model([helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk", axis=1)],
                       [ex.value("x", [1, 64]), _i64("k", [1])], [ex.value("v", [1, None]), _i64("i", [1, None])])
    assert ids(runtime) == ["R002"]
    const = ex.model([helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk", axis=1)],
                     [ex.value("x", [1, 64])], [ex.value("v", [1, 5]), _i64("i", [1, 5])],
                     [ex.const("k", const_i64(5))])
    assert ids(const) == ["R009"]  # not data-dependent; edge-10 declares no TopK, so it runs on the host


def test_range_with_runtime_limit_is_flagged_constant_range_passes():
    nodes = [helper.make_node("Range", ["start", "limit", "delta"], ["y"], name="range")]
    runtime = ex.model(nodes, [_i64("limit", [])], [_i64("y", [None])],
                       [ex.const("start", np.array(0, np.int64)), ex.const("delta", np.array(1, np.int64))])
    assert ids(runtime) == ["R002"]
    const = ex.model(nodes, [ex.value("x", [1, 4])], [_i64("y", [5])],
                     [ex.const("start", np.array(0, np.int64)), ex.const("limit", np.array(5, np.int64)),
                      ex.const("delta", np.array(1, np.int64))])
    assert "R002" not in ids(const)


def test_compress_nms_unique_nonzero_are_flagged():
    compress = ex.model([helper.make_node("Greater", ["x", "z"], ["c"], name="gt"),
                         helper.make_node("Compress", ["x", "c"], ["y"], name="compress")],
                        [ex.value("x", [16])], [ex.value("y", [None])], [ex.const("z", np.array(0, np.float32))])
    assert [f.node for f in findings(compress, "R002")] == ["compress"]
    assert ids(one("Unique", [16], [None])) == ["R002"]
    assert ids(one("NonZero", [1, 16], [2, None], out_dtype=TensorProto.INT64)) == ["R002"]
    nms = ex.model([helper.make_node("NonMaxSuppression", ["boxes", "scores"], ["y"], name="nms")],
                   [ex.value("boxes", [1, 8, 4]), ex.value("scores", [1, 1, 8])], [_i64("y", [None, 3])])
    assert ids(nms) == ["R002"]


def test_reshape_to_a_shape_computed_from_static_shapes_passes():
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")]
    m = ex.model(nodes, [ex.value("x", [1, 16, 4, 4])], [ex.value("y", [1, 16, 4, 4])])
    assert ids(m) == []


def test_reshape_to_a_runtime_shape_is_flagged_once():
    m = ex.model([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
                 [ex.value("x", [1, 16, 4, 4]), _i64("s", [2])], [ex.value("y", [None, None])])
    assert ids(m) == ["R002"]


def test_loop_scan_output_with_runtime_trip_count_is_flagged():
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep"),
         helper.make_node("Add", ["acc", "one"], ["acc_out"], name="add"),
         helper.make_node("Identity", ["acc_out"], ["scan_out"], name="emit")],
        "body", [helper.make_tensor_value_info("i", TensorProto.INT64, []),
                 helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
                 helper.make_tensor_value_info("acc", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("scan_out", TensorProto.FLOAT, [1])],
        initializer=[ex.const("one", np.ones(1, np.float32))])
    loop = helper.make_node("Loop", ["M", "", "x"], ["final", "scans"], name="loop", body=body)
    runtime = ex.model([loop], [ex.value("x", [1]), _i64("M", [])],
                       [ex.value("final", [1]), ex.value("scans", [None, 1])])
    assert [f.node for f in findings(runtime, "R002")] == ["loop"]
    const = ex.model([loop], [ex.value("x", [1])], [ex.value("final", [1]), ex.value("scans", [3, 1])],
                     [ex.const("M", np.array(3, np.int64))])
    assert findings(const, "R002") == ()


def test_shape_folded_from_static_shapes_through_arithmetic_is_not_data_dependent():
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("Cast", ["s"], ["sf"], name="to_float", to=TensorProto.FLOAT),
             helper.make_node("Mul", ["sf", "one"], ["sm"], name="mul"),
             helper.make_node("Cast", ["sm"], ["si"], name="to_int", to=TensorProto.INT64),
             helper.make_node("Reshape", ["x", "si"], ["y"], name="reshape")]
    m = ex.model(nodes, [ex.value("x", [1, 16, 4, 4])], [ex.value("y", [1, 16, 4, 4])],
                 [ex.const("one", np.ones(4, np.float32))])
    assert findings(m, "R002") == ()


def test_shape_from_a_random_op_is_data_dependent():
    nodes = [helper.make_node("RandomUniform", [], ["r"], name="rand", shape=[2], high=4.0),
             helper.make_node("Cast", ["r"], ["s"], name="cast", to=TensorProto.INT64),
             helper.make_node("ConstantOfShape", ["s"], ["y"], name="fill")]
    m = ex.model(nodes, [ex.value("x", [1])], [ex.value("y", [None, None])])
    assert [f.node for f in findings(m, "R002")] == ["fill"]
