import importlib

from npuready.partition import plan_partition
from npuready.partition.examples import transformer_like, uint8_classifier, yolo_like
from npuready.partition.inventory import NUMPY, ONNXRUNTIME, _FIXED
from npuready.paths import repo_root


def _fn(plan, node):
    return next(i.cpu_function for i in plan.inventory if i.node == node)


def test_detector_tail_maps_to_runtime_functions():
    plan = plan_partition(yolo_like(), "edge-10", edges="cpu")
    assert _fn(plan, "cls_sigmoid") == "npuready.runtime.activations.sigmoid"
    assert _fn(plan, "decode_x1y1") == "npuready.runtime.decode.dist2bbox"
    assert _fn(plan, "nms") == "npuready.runtime.nms.nms_onnx"
    assert plan.missing_cpu_code == ()


def test_classifier_head_maps_to_preprocess_functions():
    plan = plan_partition(uint8_classifier(), "edge-10", edges="cpu")
    assert [(i.part, i.node, i.cpu_function) for i in plan.inventory] == [
        ("head", "to_float", "npuready.runtime.preprocess.to_float"),
        ("head", "scale_255", "npuready.runtime.preprocess.normalize"),
        ("head", "sub_mean", "npuready.runtime.preprocess.normalize"),
        ("head", "div_std", "npuready.runtime.preprocess.normalize"),
        ("head", "nhwc_to_nchw", "npuready.runtime.preprocess.nhwc_to_nchw"),
        ("tail", "argmax", "npuready.runtime.select.argmax"),
    ]


def test_layernorm_on_the_cpu_runs_in_onnxruntime_and_is_not_missing():
    plan = plan_partition(transformer_like(), "nnapi-mirror")
    assert [(i.node, i.cpu_function) for i in plan.inventory if i.op_type == "LayerNormalization"] == [
        ("blk0_layernorm", ONNXRUNTIME), ("blk1_layernorm", ONNXRUNTIME)]
    assert plan.missing_cpu_code == () and plan.to_dict()["missing_cpu_code"] == []


def test_a_conv_on_the_cpu_of_a_target_without_conv_is_not_missing(tmp_path):
    source = (repo_root() / "generator" / "npuready" / "targets" / "data" / "tiny-1.toml").read_text()
    no_conv = source.replace('name = "tiny-1"', 'name = "tiny-1-noconv"').replace('"Conv", ', "")
    assert no_conv.count('"Conv"') == 0
    (tmp_path / "tiny-1-noconv.toml").write_text(no_conv)
    plan = plan_partition(repo_root() / "zoo" / "resnet20.onnx", str(tmp_path / "tiny-1-noconv.toml"))
    convs = [i for i in plan.inventory if i.op_type == "Conv"]
    assert len(convs) == 21 and {i.cpu_function for i in convs} == {ONNXRUNTIME}
    assert plan.missing_cpu_code == ()


def test_the_zoo_detector_with_cpu_edges_needs_no_hand_written_code():
    plan = plan_partition(repo_root() / "zoo" / "detector.onnx", "edge-10", edges="cpu")
    assert plan.missing_cpu_code == ()


def test_data_dependent_post_processing_without_a_runtime_function_is_missing():
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv"),
         helper.make_node("NonZero", ["y"], ["idx"], name="nonzero")],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
        [helper.make_tensor_value_info("idx", TensorProto.INT64, [4, None])],
        [onnx.numpy_helper.from_array(__import__("numpy").ones((1, 1, 1, 1), "float32"), "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    plan = plan_partition(model, "edge-10")
    assert [(i.node, i.cpu_function) for i in plan.missing_cpu_code] == [("nonzero", None)]


def test_every_named_cpu_function_exists():
    names = {fn for _, fn in _FIXED.values()} | {
        "npuready.runtime.preprocess.to_float", "npuready.runtime.preprocess.normalize",
        "npuready.runtime.preprocess.nhwc_to_nchw", "npuready.runtime.decode.dist2bbox"}
    for dotted in names - {NUMPY}:
        module, attr = dotted.rsplit(".", 1)
        assert callable(getattr(importlib.import_module(module), attr)), dotted
