import importlib

from npuready.partition import plan_partition
from npuready.partition.examples import transformer_like, uint8_classifier, yolo_like
from npuready.partition.inventory import NUMPY, _FIXED


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


def test_layernorm_on_the_cpu_is_flagged_as_missing():
    plan = plan_partition(transformer_like(), "nnapi-mirror")
    assert [i.node for i in plan.missing_cpu_code] == ["blk0_layernorm", "blk1_layernorm"]
    assert plan.to_dict()["missing_cpu_code"] == ["blk0_layernorm", "blk1_layernorm"]


def test_every_named_cpu_function_exists():
    names = {fn for _, fn in _FIXED.values()} | {
        "npuready.runtime.preprocess.to_float", "npuready.runtime.preprocess.normalize",
        "npuready.runtime.preprocess.nhwc_to_nchw", "npuready.runtime.decode.dist2bbox"}
    for dotted in names - {NUMPY}:
        module, attr = dotted.rsplit(".", 1)
        assert callable(getattr(importlib.import_module(module), attr)), dotted
