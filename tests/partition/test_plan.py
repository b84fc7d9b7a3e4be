import pytest
from onnx import helper

from npuready.errors import InputError
from npuready.lint.examples import model, value, weights
from npuready.partition import plan_partition
from npuready.partition.examples import transformer_like, uint8_classifier, yolo_like


def _layout(plan):
    return [(s.name, s.device) for s in plan.segments]


def test_detector_one_body_and_a_cpu_tail_on_edge10():
    plan = plan_partition(yolo_like(), "edge-10")
    assert plan.verdict == "one-body"
    assert _layout(plan) == [("body_0", "npu"), ("tail", "cpu")]
    assert set(plan.segments[1].nodes) == {"nms", "nms_box_column", "nms_box_index", "gather_boxes"}
    assert plan.segments[0].mac_share == 1.0 and plan.segments[1].macs == 0
    assert dict(plan.segments[0].op_types)["Conv"] == 4


def test_classifier_head_body_tail_and_crossings():
    plan = plan_partition(uint8_classifier(), "edge-10")
    assert _layout(plan) == [("head", "cpu"), ("body_0", "npu"), ("tail", "cpu")]
    into_body = [c for c in plan.crossings if c.direction == "cpu→npu"]
    assert [(c.tensor.name, c.source, c.destinations, c.tensor.shape, c.tensor.dtype) for c in into_body] == [
        ("image_f", "head", ("body_0",), (1, 32, 32, 3), "float32")]
    assert into_body[0].tensor.nbytes == 1 * 32 * 32 * 3 * 4
    assert into_body[0].tensor.layout == "NHWC"
    out = [c for c in plan.crossings if c.direction == "npu→cpu"]
    assert [(c.tensor.name, c.destinations) for c in out] == [("logits", ("tail", "output"))]
    assert plan.transfer_bytes == 1 * 32 * 32 * 3 * 4 + 10 * 4


def test_calibration_tensors_original_input_vs_body_input():
    plan = plan_partition(uint8_classifier(), "edge-10", edges="cpu")
    offload = plan.calibration["cpu_offload"]["tensors"]
    body = plan.calibration["body_only"]["tensors"]["body_0"]
    assert offload == [{"name": "image", "shape": [1, 32, 32, 3], "dtype": "uint8", "bytes": 32 * 32 * 3,
                        "layout": "NHWC"}]
    assert body == [{"name": "nchw", "shape": [1, 3, 32, 32], "dtype": "float32", "bytes": 32 * 32 * 3 * 4,
                     "layout": "NCHW"}]


def test_fragmented_by_layernorm_names_the_splitters():
    plan = plan_partition(transformer_like(), "nnapi-mirror")
    assert plan.verdict == "fragmented"
    assert [s.name for s in plan.segments] == ["body_0", "cpu_0", "body_1", "cpu_1", "body_2"]
    assert [(n, op) for n, op, _ in plan.splitters] == [("blk0_layernorm", "LayerNormalization"),
                                                        ("blk1_layernorm", "LayerNormalization")]
    assert "split by LayerNormalization" in plan.verdict_text()
    # the residual tensor passes body_0 → body_1 through host memory: counted out of body_0 and into body_1
    tok = [(c.direction, c.source, c.destinations) for c in plan.crossings if c.tensor.name == "blk0.tok"]
    assert tok == [("npu→cpu", "body_0", ("cpu_0", "body_1")), ("cpu→npu", "body_0", ("body_1",))]
    assert sum(s.mac_share for s in plan.segments) == pytest.approx(1.0)


def test_injected_lint_errors_fragment_edge10():
    plan = plan_partition(transformer_like(), "edge-10", lint_errors={"blk0_layernorm": ("R006",)})
    assert [s.name for s in plan.segments] == ["body_0", "cpu_0", "body_1"]
    assert plan.placements[[p.node for p in plan.placements].index("blk0_layernorm")].reason == "cpu: lint ERROR R006"


def test_nothing_on_the_npu():
    nodes = [helper.make_node("Sin", ["x"], ["y"], name="sin")]
    plan = plan_partition(model(nodes, [value("x", [1, 4])], [value("y", [1, 4])]), "edge-10", lint_errors={})
    assert plan.verdict == "no-npu" and [s.name for s in plan.segments] == ["cpu"]
    assert plan.crossings == ()


def test_independent_cpu_branch_does_not_split_the_body():
    # file order alternates NPU, CPU, NPU; the CPU node is independent, so one NPU segment suffices
    nodes = [helper.make_node("Conv", ["x", "w"], ["a"], name="conv_a", kernel_shape=[1, 1]),
             helper.make_node("Sin", ["x"], ["e"], name="side_sin"),
             helper.make_node("Conv", ["a", "w"], ["b"], name="conv_b", kernel_shape=[1, 1])]
    m = model(nodes, [value("x", [1, 2, 4, 4])], [value("b", [1, 2, 4, 4]), value("e", [1, 2, 4, 4])],
              [weights("w", (2, 2, 1, 1))])
    plan = plan_partition(m, "edge-10", lint_errors={})
    assert [(s.name, s.nodes) for s in plan.segments] == [("body_0", ("conv_a", "conv_b")), ("tail", ("side_sin",))]


def test_bad_inputs():
    with pytest.raises(InputError, match="unknown target 'nope'"):
        plan_partition(yolo_like(), "nope")
    with pytest.raises(InputError, match="edges policy 'gpu'"):
        plan_partition(yolo_like(), "edge-10", edges="gpu")
