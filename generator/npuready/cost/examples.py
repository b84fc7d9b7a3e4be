"""Small example ONNX graphs with zoo-like shapes for the cost experiments and tests (no torch needed).

``resnet20_like`` (CIFAR ResNet-20 layout on 32x32x3: 3 stages of 3 basic blocks, 16/32/64 channels,
global average pool, FC), ``mobilenetv2_like`` (MobileNetV2-style inverted residuals with depthwise
3x3 convs on 32x32x3), ``pool_net`` (max/average pooling) and ``vit_like`` (a tiny ViT: 4x4 patches of
32x32x3, two pre-norm blocks with LayerNormalization, 4-head Softmax attention and an Erf-GELU MLP). Weights are seeded
random: only shapes matter for cost, and the INT8 TFLite export calibrates on seeded random inputs.
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

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int = 1, group: int = 1, act: str | None = "Relu",
             pad: int | None = None) -> str:
        name = self._id("conv")
        fan_in = cin // group * k * k
        w = (self.rng.standard_normal((cout, cin // group, k, k)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        b = (self.rng.standard_normal(cout) * 0.01).astype(np.float32)
        self.inits += [numpy_helper.from_array(w, f"{name}.w"), numpy_helper.from_array(b, f"{name}.b")]
        pad = k // 2 if pad is None else pad
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
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)],
                              producer_name="npuready.cost.examples")
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


def vit_like(size: int = 32, classes: int = 10, seed: int = 3, dim: int = 64, heads: int = 4,
             depth: int = 2) -> onnx.ModelProto:
    b = _Builder("vit_like", seed)
    patch = 4
    tokens = (size // patch) ** 2
    x = b.conv("input", 3, dim, patch, stride=patch, act=None, pad=0)  # patch embedding: [1, dim, 8, 8]

    def const(name: str, value) -> str:
        b.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(op: str, inputs: list[str], **attrs) -> str:
        name = b._id(op.lower())
        b.nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def linear(v: str, cin: int, cout: int) -> str:
        w = const(b._id("w"), (b.rng.standard_normal((cin, cout)) * np.sqrt(1.0 / cin)).astype(np.float32))
        return node("Add", [node("MatMul", [v, w]), const(b._id("bias"), np.zeros(cout, np.float32))])

    def norm(v: str) -> str:
        return node("LayerNormalization", [v, const(b._id("g"), np.ones(dim, np.float32)),
                                           const(b._id("beta"), np.zeros(dim, np.float32))], axis=-1)

    x = node("Reshape", [x, const("shape_tokens", np.array([1, dim, tokens], np.int64))])
    x = node("Transpose", [x], perm=[0, 2, 1])  # [1, T, dim]
    hd = dim // heads
    for _ in range(depth):
        h = norm(x)
        qkv = []
        for _part in range(3):
            t = node("Reshape", [linear(h, dim, dim), const(b._id("s"), np.array([1, tokens, heads, hd], np.int64))])
            qkv.append(node("Transpose", [t], perm=[0, 2, 1, 3]))  # [1, H, T, hd]
        kt = node("Transpose", [qkv[1]], perm=[0, 1, 3, 2])
        att = node("Softmax", [node("Mul", [node("MatMul", [qkv[0], kt]),
                                            const(b._id("scale"), np.array(hd ** -0.5, np.float32))])], axis=-1)
        o = node("Transpose", [node("MatMul", [att, qkv[2]])], perm=[0, 2, 1, 3])
        o = node("Reshape", [o, const(b._id("s"), np.array([1, tokens, dim], np.int64))])
        x = node("Add", [x, linear(o, dim, dim)])
        m = linear(norm(x), dim, 2 * dim)
        gelu = node("Mul", [node("Mul", [m, const(b._id("half"), np.array(0.5, np.float32))]),
                            node("Add", [node("Erf", [node("Div", [m, const(b._id("sqrt2"),
                                                                             np.array(np.sqrt(2.0), np.float32))])]),
                                         const(b._id("one"), np.array(1.0, np.float32))])])
        x = node("Add", [x, linear(gelu, 2 * dim, dim)])
    x = node("ReduceMean", [norm(x), const("axes_tokens", np.array([1], np.int64))], keepdims=0)  # [1, dim]
    out = linear(x, dim, classes)
    return b.model("input", out, [1, 3, size, size], classes)


EXAMPLES = {"resnet20_like": resnet20_like, "mobilenetv2_like": mobilenetv2_like, "pool_net": pool_net,
            "vit_like": vit_like}
