"""Small ONNX models that are not in the zoo, built with onnx.helper for the intake tests (seeded)."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from npuready.lint.examples import const, model, value, weights

N = helper.make_node


def conv_net(activation: str = "Relu", batch="1", channel_max=None, name: str = "user_net") -> onnx.ModelProto:
    """Conv(1→4) + activation → Conv(4→8, stride 2) + Relu → GAP → Gemm(8→10); input [batch,1,16,16].

    ``channel_max``: the first conv's per-output-channel max |w| (its 4 channels are scaled to these).
    """
    w1 = onnx.numpy_helper.to_array(weights("c1.w", (4, 1, 3, 3), seed=1)).astype(np.float32)
    if channel_max is not None:
        w1 = w1 / np.abs(w1).reshape(4, -1).max(1)[:, None, None, None]
        w1 = w1 * np.asarray(channel_max, np.float32)[:, None, None, None]
    inits = [const("c1.w", w1), const("c1.b", np.zeros(4, np.float32)),
             weights("c2.w", (8, 4, 3, 3), seed=2), const("c2.b", np.zeros(8, np.float32)),
             weights("fc.w", (10, 8), seed=3), const("fc.b", np.zeros(10, np.float32))]
    nodes = [N("Conv", ["x", "c1.w", "c1.b"], ["a"], name="conv1", kernel_shape=[3, 3], pads=[1] * 4),
             N(activation, ["a"], ["ar"], name="act1"),
             N("Conv", ["ar", "c2.w", "c2.b"], ["b"], name="conv2", kernel_shape=[3, 3], pads=[1] * 4, strides=[2, 2]),
             N("Relu", ["b"], ["br"], name="act2"),
             N("GlobalAveragePool", ["br"], ["g"], name="gap"), N("Flatten", ["g"], ["f"], name="flatten"),
             N("Gemm", ["f", "fc.w", "fc.b"], ["logits"], name="fc", transB=1)]
    b = int(batch) if batch.isdigit() else batch
    return model(nodes, [value("x", [b, 1, 16, 16])], [value("logits", [b, 10])], inits, name=name)


def sum_branches() -> onnx.ModelProto:
    """Two conv branches joined by Sum (not in edge-10's op table), then a conv: the Sum splits the NPU body."""
    inits = [weights("a.w", (8, 3, 3, 3), seed=4), weights("b.w", (8, 3, 1, 1), seed=5),
             weights("c.w", (8, 8, 3, 3), seed=6)]
    nodes = [N("Conv", ["x", "a.w"], ["a"], name="branch_a", kernel_shape=[3, 3], pads=[1] * 4),
             N("Conv", ["x", "b.w"], ["b"], name="branch_b", kernel_shape=[1, 1]),
             N("Sum", ["a", "b"], ["s"], name="join"),
             N("Relu", ["s"], ["r"], name="relu"),
             N("Conv", ["r", "c.w"], ["y"], name="after", kernel_shape=[3, 3], pads=[1] * 4)]
    return model(nodes, [value("x", [1, 3, 8, 8])], [value("y", [1, 8, 8, 8])], inits, name="sum_branches")


def gemm_no_transpose() -> onnx.ModelProto:
    """Gemm with B stored [in, out] (transB=0): output channels on axis 1; columns 0..3 scaled 1, 1, 1, 50."""
    w = np.ones((6, 4), np.float32)
    w[:, 3] = 50.0
    nodes = [N("Gemm", ["x", "w"], ["y"], name="fc")]
    return model(nodes, [value("x", [1, 6])], [value("y", [1, 4])], [const("w", w)], name="gemm_plain")


def uint8_output() -> onnx.ModelProto:
    nodes = [N("Cast", ["x"], ["y"], name="cast", to=TensorProto.UINT8)]
    return model(nodes, [value("x", [1, 10])], [value("y", [1, 10], TensorProto.UINT8)], [], name="cast_only")


def erf_gelu() -> onnx.ModelProto:
    """GELU as torch exports it at opset 17: x / sqrt(2) → Erf → + 1 → x · (…) → · 0.5."""
    inits = [const("sqrt2", np.array(np.sqrt(2.0), np.float32)), const("one", np.array(1.0, np.float32)),
             const("half", np.array(0.5, np.float32))]
    nodes = [N("Div", ["x", "sqrt2"], ["d"], name="div"), N("Erf", ["d"], ["e"], name="erf"),
             N("Add", ["e", "one"], ["a"], name="add"), N("Mul", ["x", "a"], ["m"], name="mul"),
             N("Mul", ["m", "half"], ["y"], name="mul_half")]
    return model(nodes, [value("x", [1, 8])], [value("y", [1, 8])], inits, name="erf_gelu")
