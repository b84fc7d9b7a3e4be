"""Small example ONNX graphs with zoo-like shapes for the cost experiments and tests (no torch needed).

``resnet20_like`` (CIFAR ResNet-20 layout on 32x32x3: 3 stages of 3 basic blocks, 16/32/64 channels,
global average pool, FC) and ``mobilenetv2_like`` (MobileNetV2-style inverted residuals with depthwise
3x3 convs on 32x32x3), ``pool_net`` (max/average pooling). Weights are seeded random: only shapes
matter for cost, and the INT8 TFLite export calibrates on seeded random inputs.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class _Builder:
    def __init__(self, name: str, seed: int):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.count = 0

    def _id(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int = 1, group: int = 1, act: str | None = "Relu") -> str:
        name = self._id("conv")
        fan_in = cin // group * k * k
        w = (self.rng.standard_normal((cout, cin // group, k, k)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        b = (self.rng.standard_normal(cout) * 0.01).astype(np.float32)
        self.inits += [numpy_helper.from_array(w, f"{name}.w"), numpy_helper.from_array(b, f"{name}.b")]
        pad = k // 2
        self.nodes.append(helper.make_node("Conv", [x, f"{name}.w", f"{name}.b"], [name], name=name,
                                           kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4, group=group))
        return self.act(name, act) if act else name

    def act(self, x: str, op: str) -> str:
        name = self._id(op.lower())
        if op == "Relu6":
            lo, hi = f"{name}.lo", f"{name}.hi"
            self.inits += [numpy_helper.from_array(np.array(0, np.float32), lo),
                           numpy_helper.from_array(np.array(6, np.float32), hi)]
            self.nodes.append(helper.make_node("Clip", [x, lo, hi], [name], name=name))
        else:
            self.nodes.append(helper.make_node(op, [x], [name], name=name))
        return name

    def add(self, a: str, b: str, act: str | None = None) -> str:
        name = self._id("add")
        self.nodes.append(helper.make_node("Add", [a, b], [name], name=name))
        return self.act(name, act) if act else name

    def pool(self, x: str, op: str, k: int = 2, stride: int = 2) -> str:
        name = self._id(op.lower())
        attrs = {} if op.startswith("Global") else {"kernel_shape": [k, k], "strides": [stride, stride]}
        self.nodes.append(helper.make_node(op, [x], [name], name=name, **attrs))
        return name

    def fc(self, x: str, cin: int, cout: int) -> str:
        flat = self._id("flatten")
        self.nodes.append(helper.make_node("Flatten", [x], [flat], name=flat, axis=1))
        name = self._id("fc")
        w = (self.rng.standard_normal((cout, cin)) * np.sqrt(1.0 / cin)).astype(np.float32)
        b = np.zeros(cout, np.float32)
        self.inits += [numpy_helper.from_array(w, f"{name}.w"), numpy_helper.from_array(b, f"{name}.b")]
        self.nodes.append(helper.make_node("Gemm", [flat, f"{name}.w", f"{name}.b"], [name], name=name, transB=1))
        return name

    def model(self, x: str, out: str, shape: list[int], classes: int) -> onnx.ModelProto:
        graph = helper.make_graph(self.nodes, self.name,
                                  [helper.make_tensor_value_info(x, TensorProto.FLOAT, shape)],
                                  [helper.make_tensor_value_info(out, TensorProto.FLOAT, [shape[0], classes])],
                                  self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="npuready.cost.examples")
        m.ir_version = 8
        return onnx.shape_inference.infer_shapes(m)


def resnet20_like(size: int = 32, classes: int = 10, seed: int = 0) -> onnx.ModelProto:
    b = _Builder("resnet20_like", seed)
    x = b.conv("input", 3, 16, 3)
    cin = 16
    for stage, cout in enumerate((16, 32, 64)):
        for block in range(3):
            stride = 2 if stage > 0 and block == 0 else 1
            y = b.conv(x, cin, cout, 3, stride)
            y = b.conv(y, cout, cout, 3, 1, act=None)
            short = x if stride == 1 and cin == cout else b.conv(x, cin, cout, 1, stride, act=None)
            x = b.add(y, short, act="Relu")
            cin = cout
    x = b.pool(x, "GlobalAveragePool")
    return b.model("input", b.fc(x, 64, classes), [1, 3, size, size], classes)


def mobilenetv2_like(size: int = 32, classes: int = 10, seed: int = 1, width: float = 0.5) -> onnx.ModelProto:
    b = _Builder("mobilenetv2_like", seed)

    def ch(c: int) -> int:
        return max(8, int(c * width + 4) // 8 * 8)

    x = b.conv("input", 3, ch(32), 3, 1, act="Relu6")
    cin = ch(32)
    # (expansion t, channels c, repeats n, first stride s) as in MobileNetV2, CIFAR-style strides
    for t, c, n, s in ((1, 16, 1, 1), (6, 24, 2, 1), (6, 32, 3, 2), (6, 64, 2, 2), (6, 96, 2, 1), (6, 160, 2, 2)):
        cout = ch(c)
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            y = b.conv(x, cin, hidden, 1, act="Relu6") if t != 1 else x
            y = b.conv(y, hidden, hidden, 3, stride, group=hidden, act="Relu6")
            y = b.conv(y, hidden, cout, 1, act=None)
            x = b.add(x, y) if stride == 1 and cin == cout else y
            cin = cout
    x = b.conv(x, cin, ch(640), 1, act="Relu6")
    x = b.pool(x, "GlobalAveragePool")
    return b.model("input", b.fc(x, ch(640), classes), [1, 3, size, size], classes)


def pool_net(size: int = 32, classes: int = 10, seed: int = 2) -> onnx.ModelProto:
    b = _Builder("pool_net", seed)
    x = b.conv("input", 3, 32, 3)
    x = b.pool(x, "MaxPool")
    x = b.conv(x, 32, 64, 3)
    x = b.pool(x, "AveragePool")
    x = b.conv(x, 64, 64, 3, group=64)
    x = b.pool(x, "GlobalAveragePool")
    return b.model("input", b.fc(x, 64, classes), [1, 3, size, size], classes)


EXAMPLES = {"resnet20_like": resnet20_like, "mobilenetv2_like": mobilenetv2_like, "pool_net": pool_net}
