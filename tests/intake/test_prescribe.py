"""Prescriptions: which actions, in which order, with the expected effect computed on rewritten graphs."""
from __future__ import annotations

import pytest

from intake_models import conv_net, sum_branches, uint8_output
from npuready.intake.diagnosis import diagnose
from npuready.intake.prescribe import calibration_images, prescribe
from npuready.partition.examples import transformer_like, yolo_like


def _ids(actions):
    return [a.id for a in actions]


def test_detector_postprocessing_moves_out_first():
    actions = prescribe(diagnose(yolo_like(), "edge-10-nolut"))
    assert _ids(actions) == ["move-postprocess-out", "prune-aligned", "calibrate"]
    move = actions[0]
    assert {"nms", "cls_sigmoid"} <= set(move.nodes)
    assert move.effect["lint_errors_cleared"] == 2
    assert "npuready.runtime.nms.nms_onnx" in move.effect["cpu_functions"]
    assert move.effect["missing_cpu_code"] == []


def test_host_activation_is_swapped_and_the_effect_is_simulated_on_the_rewrite():
    actions = prescribe(diagnose(conv_net("Sigmoid"), "edge-10-nolut"))
    assert _ids(actions)[0] == "swap-activation"
    swap = actions[0]
    assert swap.nodes == ("act1",) and swap.automatic
    assert swap.effect["replacement"] == "Clip"  # HardSwish is host on edge-10-nolut, ReLU6 is fused
    assert (swap.effect["before"]["lint_errors"], swap.effect["after"]["lint_errors"]) == (1, 0)
    assert (swap.effect["before"]["npu_segments"], swap.effect["after"]["npu_segments"]) == (2, 1)
    assert swap.effect["cycles_saved"] == swap.effect["before"]["cycles"] - swap.effect["after"]["cycles"] > 0


def test_same_activation_on_a_lut_target_needs_no_swap():
    assert "swap-activation" not in _ids(prescribe(diagnose(conv_net("Sigmoid"), "edge-10")))


def test_dynamic_batch_is_fixed_first():
    actions = prescribe(diagnose(conv_net(batch="N"), "edge-10"))
    assert actions[0].id == "fix-dynamic-axes" and actions[0].effect["lint_errors_cleared"] >= 1


def test_layernorm_replacement_bound():
    actions = prescribe(diagnose(transformer_like(), "edge-10-nolut"))
    assert _ids(actions) == ["replace-norm", "prune-aligned", "calibrate"]
    norm = actions[0]
    assert norm.effect["before"]["npu_segments"] == 3 and norm.effect["after_upper_bound"]["npu_segments"] == 1
    assert not actions[1].recommended and actions[1].effect["cycles_saved"] == 0  # all layers < 64 channels


def test_sum_is_rewritten_to_add():
    actions = prescribe(diagnose(sum_branches(), "edge-10"))
    rewrite = next(a for a in actions if a.id == "rewrite-equivalent-ops")
    assert rewrite.nodes == ("join",) and rewrite.title.startswith("Rewrite Sum → Add")
    assert (rewrite.effect["before"]["npu_segments"], rewrite.effect["after"]["npu_segments"]) == (2, 1)


def test_wide_ranges_prescribe_per_channel_weights():
    actions = prescribe(diagnose(conv_net(channel_max=[0.05, 0.1, 0.2, 1.0]), "edge-10"))
    pc = next(a for a in actions if a.id == "per-channel-weights")
    assert pc.nodes == ("conv1",) and pc.effect["worst_ratio"] == pytest.approx(20.0)
    assert _ids(actions)[-1] == "calibrate"


@pytest.mark.parametrize("model, expected", [(conv_net(), (100, 10)), (uint8_output(), (200, None))])
def test_calibration_size_rule(model, expected):
    assert calibration_images(diagnose(model, "edge-10")) == expected


def test_old_ir_model_from_the_onnx_wheel_gets_a_simulated_swap():
    """pytorch-converted/test_Sigmoid is IR 3 / opset 6 with an unnamed node and batch 2: the what-if finds the
    node by the name the linter gives it and writes a Clip-6 (attributes); R001b (batch 2) stays."""
    from pathlib import Path

    import onnx

    path = Path(onnx.__file__).parent / "backend/test/data/pytorch-converted/test_Sigmoid/model.onnx"
    actions = prescribe(diagnose(path, "edge-10-nolut"))
    assert [a.id for a in actions][:2] == ["fix-dynamic-axes", "swap-activation"]
    swap = actions[1]
    assert swap.nodes == ("Sigmoid_0",) and swap.effect["replacement"] == "Clip"
    assert (swap.effect["before"]["lint_errors"], swap.effect["after"]["lint_errors"]) == (2, 1)


def _bn_after_relu():
    """Conv -> Relu -> BatchNorm (does not fold: it follows Relu) -> Relu, like DenseNet's pre-activation BNs."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    c = 8
    inits = [numpy_helper.from_array(np.random.default_rng(0).standard_normal((c, 1, 3, 3)).astype(np.float32), "w")]
    inits += [numpy_helper.from_array(np.full(c, v, np.float32), n)
              for n, v in (("s", 1), ("b", 0), ("m", 0), ("v", 1))]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu"),
             helper.make_node("BatchNormalization", ["r", "s", "b", "m", "v"], ["n"], name="bn"),
             helper.make_node("Relu", ["n"], ["y"], name="relu2")]
    graph = helper.make_graph(nodes, "bn_after_relu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, 8, 8])], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def test_batchnorm_network_is_never_told_to_replace_its_norms_by_batchnorm():
    import dataclasses

    from npuready.targets import load_target

    assert "replace-norm" not in _ids(prescribe(diagnose(_bn_after_relu(), "edge-10")))  # WARN there: runs unfolded
    from npuready.graph import load

    strict = dataclasses.replace(load_target("edge-10"), norms={"BatchNormalization": "host"})
    # the loader's importer lowers this BN to Mul+Add (npuready.importer.batchnorm): nothing left to prescribe
    assert "fold-batchnorm" not in _ids(prescribe(diagnose(_bn_after_relu(), strict)))
    actions = prescribe(diagnose(load(_bn_after_relu(), canonical=False), strict))  # the BN as written
    assert "replace-norm" not in _ids(actions)
    fold = next(a for a in actions if a.id == "fold-batchnorm")
    assert fold.nodes == ("bn",) and fold.effect["lint_errors_cleared"] == 1
