"""Small seeded ONNX classifiers whose first op is a Conv: subjects for the fusion check.

Built with onnx.helper (no torch): Conv(k, pads) -> Relu -> Conv -> Relu -> GlobalAveragePool ->
Flatten -> Gemm. Weights are He-scaled normal draws from a seeded generator, so fused and
original outputs have realistic magnitudes.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def conv_classifier(channels: int = 3, size: int = 224, first_pads: int = 1, first_kernel: int = 3,
                    first_stride: int = 2, classes: int = 10, seed: int = 0) -> onnx.ModelProto:
    """Float32 NCHW classifier ``1 x channels x size x size -> 1 x classes``."""
    rng = np.random.default_rng(seed)

    def he(*shape: int) -> np.ndarray:
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    k = first_kernel
    inits = [
        numpy_helper.from_array(he(16, channels, k, k), "conv1.W"),
        numpy_helper.from_array((rng.standard_normal(16) * 0.1).astype(np.float32), "conv1.B"),
        numpy_helper.from_array(he(32, 16, 3, 3), "conv2.W"),
        numpy_helper.from_array((rng.standard_normal(32) * 0.1).astype(np.float32), "conv2.B"),
        numpy_helper.from_array(he(classes, 32).astype(np.float32), "fc.W"),
        numpy_helper.from_array(np.zeros(classes, np.float32), "fc.B"),
    ]
    p = first_pads
    nodes = [
        helper.make_node("Conv", ["image", "conv1.W", "conv1.B"], ["c1"], name="conv1", kernel_shape=[k, k],
                         strides=[first_stride, first_stride], pads=[p, p, p, p]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "conv2.W", "conv2.B"], ["c2"], name="conv2", kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "fc.W", "fc.B"], ["logits"], name="fc", transB=1),
    ]
    graph = helper.make_graph(
        nodes, f"conv_classifier_p{p}",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, channels, size, size])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, classes])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="npuready")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model
