"""Small ONNX float models built with onnx.helper for the TFLite exporter tests (seeded weights)."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class _Net:
    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.k = 0

    def name(self, p: str) -> str:
        self.k += 1
        return f"{p}{self.k}"

    def init(self, arr, p="w") -> str:
        n = self.name(p)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), n))
        return n

    def node(self, op, ins, **attrs) -> str:
        out = self.name(op.lower() + "_out")
        self.nodes.append(helper.make_node(op, ins, [out], name=self.name(op), **attrs))
        return out

    def conv(self, x, cin, cout, k=3, stride=1, pad=1, group=1, bias=True):
        w = self.init((self.rng.standard_normal((cout, cin // group, k, k)) / np.sqrt(cin // group * k * k))
                      .astype(np.float32))
        ins = [x, w]
        if bias:
            ins.append(self.init(self.rng.standard_normal(cout).astype(np.float32) * 0.1, "b"))
        return self.node("Conv", ins, kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4, group=group)

    def bn(self, x, c):
        r = self.rng
        ins = [x, self.init((1 + 0.1 * r.standard_normal(c)).astype(np.float32)),
               self.init((0.1 * r.standard_normal(c)).astype(np.float32)),
               self.init((0.1 * r.standard_normal(c)).astype(np.float32)),
               self.init((1 + 0.1 * r.random(c)).astype(np.float32))]
        return self.node("BatchNormalization", ins, epsilon=1e-5)

    def clip6(self, x):
        return self.node("Clip", [x, self.init(np.array(0, np.float32), "lo"),
                                  self.init(np.array(6, np.float32), "hi")])

    def gemm(self, x, k, n):
        w = self.init((self.rng.standard_normal((n, k)) / np.sqrt(k)).astype(np.float32))
        b = self.init((0.1 * self.rng.standard_normal(n)).astype(np.float32), "b")
        return self.node("Gemm", [x, w, b], transB=1)

    def model(self, in_shape, out: str | list[str]) -> onnx.ModelProto:
        outs = [out] if isinstance(out, str) else out
        g = helper.make_graph(self.nodes, "net", [helper.make_tensor_value_info("input", TensorProto.FLOAT, in_shape)],
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        m.ir_version = 8
        return onnx.shape_inference.infer_shapes(m)


def conv_relu() -> onnx.ModelProto:
    n = _Net(1)
    y = n.node("Relu", [n.conv("input", 3, 8)])
    return n.model([1, 3, 8, 8], y)


def depthwise() -> onnx.ModelProto:
    n = _Net(2)
    y = n.clip6(n.conv("input", 4, 4, group=4, stride=2))          # ONNX pads 1,1,1,1: not TF SAME → PAD
    y = n.node("Relu", [n.conv(y, 4, 8, k=3, stride=1, group=4)])  # depth multiplier 2, SAME
    return n.model([1, 4, 9, 9], y)


def grouped() -> onnx.ModelProto:
    n = _Net(3)
    return n.model([1, 4, 6, 6], n.conv("input", 4, 6, group=2))


def residual(bn: bool = True) -> onnx.ModelProto:
    n = _Net(4)
    norm = (lambda x: n.bn(x, 8)) if bn else (lambda x: x)
    a = n.node("Relu", [norm(n.conv("input", 8, 8, bias=not bn))])
    b = norm(n.conv(a, 8, 8, bias=not bn))
    y = n.node("Relu", [n.node("Add", [b, "input"])])
    return n.model([1, 8, 6, 6], y)


def pooling(reduce_mean: bool = True) -> onnx.ModelProto:
    n = _Net(5)
    x = n.node("MaxPool", [n.conv("input", 3, 3)], kernel_shape=[2, 2], strides=[2, 2])
    x = n.node("AveragePool", [x], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])
    y = n.node("GlobalAveragePool", [x])
    if not reduce_mean:  # onnxruntime's quantize_static leaves ReduceMean in float
        return n.model([1, 3, 8, 8], y)
    z = n.node("ReduceMean", [x], axes=[2, 3], keepdims=0)
    return n.model([1, 3, 8, 8], [y, z])


def fc_softmax() -> onnx.ModelProto:
    n = _Net(6)
    x = n.node("Flatten", [n.node("Relu", [n.conv("input", 2, 4)])], axis=1)
    x = n.node("Relu", [n.gemm(x, 4 * 5 * 5, 16)])
    x = n.node("MatMul", [x, n.init((n.rng.standard_normal((16, 10)) * 0.3).astype(np.float32))])
    return n.model([1, 2, 5, 5], n.node("Softmax", [x], axis=-1))


def concat_reshape(hardswish: bool = True) -> onnx.ModelProto:
    n = _Net(7)
    a = n.node("Relu", [n.conv("input", 3, 4)])
    b = n.node("Sigmoid", [n.conv("input", 3, 2)])
    c = n.node("Concat", [a, b], axis=1)
    c = n.node("Mul", [c, n.init(np.linspace(0.5, 2, 6, dtype=np.float32).reshape(6, 1, 1))])
    if hardswish:  # onnxruntime's quantize_static leaves HardSwish in float
        c = n.node("HardSwish", [c])
    r = n.node("Reshape", [c, n.init(np.array([1, 6, -1], np.int64), "shape")])
    t = n.node("Transpose", [r], perm=[0, 2, 1])
    return n.model([1, 3, 4, 4], n.node("Softmax", [t], axis=-1))


def vit_block() -> onnx.ModelProto:
    """LayerNorm, MatMul (FC and batch), exact-GELU chain, Gather, Slice, Transpose, Softmax on rank 3."""
    n = _Net(8)
    r = n.rng
    ln = n.node("LayerNormalization", ["input", n.init((1 + 0.1 * r.standard_normal(8)).astype(np.float32)),
                                       n.init((0.1 * r.standard_normal(8)).astype(np.float32))], axis=-1)
    h = n.node("Add", [n.node("MatMul", [ln, n.init((r.standard_normal((8, 16)) / 3).astype(np.float32))]),
                       n.init((0.1 * r.standard_normal(16)).astype(np.float32))])
    e = n.node("Erf", [n.node("Div", [h, n.init(np.array(1.4142135381698608, np.float32))])])
    g = n.node("Mul", [n.node("Mul", [h, n.node("Add", [e, n.init(np.array(1.0, np.float32))])]),
                       n.init(np.array(0.5, np.float32))])
    y = n.node("Add", [n.node("MatMul", [g, n.init((r.standard_normal((16, 8)) / 4).astype(np.float32))]), "input"])
    cls = n.node("Gather", [y, n.init(np.array(0, np.int64), "idx")], axis=1)
    s = n.node("Slice", [y, n.init(np.array([1], np.int64)), n.init(np.array([5], np.int64)),
                         n.init(np.array([1], np.int64))])
    att = n.node("Softmax", [n.node("MatMul", [s, n.node("Transpose", [s], perm=[0, 2, 1])])], axis=-1)
    return n.model([1, 5, 8], [cls, att])


def squeeze_excite() -> onnx.ModelProto:
    """MobileNetV3's block: HardSwish, a squeeze-excite gate by HardSigmoid (PyTorch's α = 1/6 and ONNX's default
    α = 0.2, as Paddle writes it); then a classifier head."""
    n = _Net(9)
    x = n.node("HardSwish", [n.conv("input", 3, 6)])
    se = n.conv(n.node("GlobalAveragePool", [x]), 6, 6, k=1, pad=0)
    x = n.node("Mul", [x, n.node("HardSigmoid", [se], alpha=1.0 / 6.0, beta=0.5)])
    x = n.node("Mul", [x, n.node("HardSigmoid", [n.conv(x, 6, 6, k=1, pad=0)])])
    x = n.node("Flatten", [n.node("GlobalAveragePool", [x])], axis=1)
    return n.model([1, 3, 6, 6], n.gemm(x, 6, 5))


FLOAT_MODELS = {
    "conv_relu": conv_relu, "depthwise": depthwise, "grouped": grouped, "residual": residual,
    "pooling": pooling, "fc_softmax": fc_softmax, "concat_reshape": concat_reshape, "vit_block": vit_block,
    "squeeze_excite": squeeze_excite,
}

#: models whose every op onnxruntime's quantize_static quantizes (no BatchNormalization, no HardSwish)
QDQ_MODELS = {
    "conv_relu": conv_relu, "depthwise": depthwise, "grouped": grouped, "residual": lambda: residual(bn=False),
    "pooling": lambda: pooling(reduce_mean=False), "fc_softmax": fc_softmax,
    "concat_reshape": lambda: concat_reshape(hardswish=False),
}
