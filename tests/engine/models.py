"""Small float models built with onnx.helper and quantised with onnxruntime (QDQ), for engine tests."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def _init(rng, name, shape, scale=0.3):
    return nh.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)


def cnn() -> onnx.ModelProto:
    """Conv (regular, depthwise strided, 1x1, 3x3), Relu/Clip, Add, MaxPool, AveragePool, GAP, Flatten, Gemm."""
    rng = np.random.default_rng(0)
    inits = [_init(rng, "w1", (8, 1, 3, 3)), _init(rng, "b1", (8,), 0.1), _init(rng, "w2", (8, 1, 3, 3)),
             _init(rng, "b2", (8,), 0.1), _init(rng, "w3", (16, 8, 1, 1)), _init(rng, "b3", (16,), 0.1),
             _init(rng, "w4", (16, 4, 3, 3), 0.2), _init(rng, "b4", (16,), 0.1), _init(rng, "wf", (10, 16)),
             _init(rng, "bf", (10,), 0.1), nh.from_array(np.array(0, np.float32), "lo"),
             nh.from_array(np.array(6, np.float32), "hi")]
    nodes = [
        h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]), h.make_node("Relu", ["c1"], ["r1"]),
        h.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], group=8, strides=[2, 2]),
        h.make_node("Clip", ["c2", "lo", "hi"], ["r2"]),
        h.make_node("Conv", ["r2", "w3", "b3"], ["c3"]),
        h.make_node("Conv", ["c3", "w4", "b4"], ["c4"], pads=[1, 1, 1, 1], group=4),
        h.make_node("Relu", ["c4"], ["r4"]),
        h.make_node("Add", ["r4", "c3"], ["a"]),
        h.make_node("MaxPool", ["a"], ["mp"], kernel_shape=[2, 2], strides=[2, 2]),
        h.make_node("AveragePool", ["mp"], ["ap"], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1]),
        h.make_node("GlobalAveragePool", ["ap"], ["g"]), h.make_node("Flatten", ["g"], ["f"]),
        h.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1)]
    return _model(nodes, inits, [1, 10])


def elementwise() -> onnx.ModelProto:
    """Mul, Concat, Transpose, Reshape, Sigmoid, Tanh, LeakyRelu, MatMul."""
    rng = np.random.default_rng(1)
    inits = [_init(rng, "w1", (4, 1, 3, 3)), _init(rng, "b1", (4,), 0.1), _init(rng, "wm", (12 * 14 * 14, 10), 0.05),
             nh.from_array(np.array([1, 14 * 14 * 12], np.int64), "shape")]
    nodes = [
        h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
        h.make_node("Sigmoid", ["c1"], ["s"]), h.make_node("Mul", ["c1", "s"], ["m"]),
        h.make_node("LeakyRelu", ["c1"], ["lr"], alpha=0.1), h.make_node("Tanh", ["c1"], ["th"]),
        h.make_node("Concat", ["m", "lr", "th"], ["cat"], axis=1),
        h.make_node("Transpose", ["cat"], ["t"], perm=[0, 2, 3, 1]),
        h.make_node("Reshape", ["t", "shape"], ["rs"]),
        h.make_node("MatMul", ["rs", "wm"], ["y"])]
    return _model(nodes, inits, [1, 10])


def attention() -> onnx.ModelProto:
    """A one-head transformer block: LayerNorm, qkv split (Transpose moving the batch axis + Gather),
    MatMul of activations, Mul by a constant, Softmax, GELU as Div→Erf→Add→Mul→Mul, ReduceMean, Gemm."""
    rng = np.random.default_rng(2)
    f32 = np.float32
    inits = [_init(rng, "wp", (8, 1, 7, 7), 0.2), _init(rng, "bp", (8,), 0.1),
             nh.from_array(np.array([1, 8, 16], np.int64), "s1"),
             nh.from_array(np.array([1, 16, 3, 8], np.int64), "s2"),
             nh.from_array((1 + 0.1 * rng.standard_normal(8)).astype(f32), "gamma"), _init(rng, "beta", (8,), 0.1),
             _init(rng, "wqkv", (8, 24), 0.4), nh.from_array(np.array(0, np.int64), "i0"),
             nh.from_array(np.array(1, np.int64), "i1"), nh.from_array(np.array(2, np.int64), "i2"),
             nh.from_array(np.array(0.35, f32), "scale"), nh.from_array(np.array(1.4142135, f32), "sqrt2"),
             nh.from_array(np.array(1.0, f32), "one"), nh.from_array(np.array(0.5, f32), "half"),
             _init(rng, "wh", (10, 8)), _init(rng, "bh", (10,), 0.1)]
    nodes = [
        h.make_node("Conv", ["x", "wp", "bp"], ["p"], kernel_shape=[7, 7], strides=[7, 7]),
        h.make_node("Reshape", ["p", "s1"], ["p2"]), h.make_node("Transpose", ["p2"], ["tok"], perm=[0, 2, 1]),
        h.make_node("LayerNormalization", ["tok", "gamma", "beta"], ["ln"], axis=-1, epsilon=1e-5),
        h.make_node("MatMul", ["ln", "wqkv"], ["qkv"]), h.make_node("Reshape", ["qkv", "s2"], ["qkv4"]),
        h.make_node("Transpose", ["qkv4"], ["qkvt"], perm=[2, 0, 1, 3]),
        h.make_node("Gather", ["qkvt", "i0"], ["q"], axis=0), h.make_node("Gather", ["qkvt", "i1"], ["k"], axis=0),
        h.make_node("Gather", ["qkvt", "i2"], ["v"], axis=0),
        h.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]), h.make_node("MatMul", ["q", "kt"], ["att"]),
        h.make_node("Mul", ["att", "scale"], ["atts"]), h.make_node("Softmax", ["atts"], ["prob"], axis=-1),
        h.make_node("MatMul", ["prob", "v"], ["ctx"]), h.make_node("Div", ["ctx", "sqrt2"], ["g1"]),
        h.make_node("Erf", ["g1"], ["g2"]), h.make_node("Add", ["g2", "one"], ["g3"]),
        h.make_node("Mul", ["ctx", "g3"], ["g4"]), h.make_node("Mul", ["g4", "half"], ["gelu"]),
        h.make_node("ReduceMean", ["gelu"], ["pool"], axes=[1], keepdims=0),
        h.make_node("Gemm", ["pool", "wh", "bh"], ["y"], transB=1)]
    return _model(nodes, inits, [1, 10], opset=17)


def attention_lite() -> onnx.ModelProto:
    """Attention without LayerNorm (all ops have int8 TFLite kernels): MatMul of activations, Softmax."""
    rng = np.random.default_rng(4)
    inits = [_init(rng, "wp", (8, 1, 7, 7), 0.2), _init(rng, "bp", (8,), 0.1),
             nh.from_array(np.array([1, 8, 16], np.int64), "s1"), _init(rng, "wq", (8, 8), 0.4),
             _init(rng, "wk", (8, 8), 0.4), nh.from_array(np.array([1, 128], np.int64), "s2"),
             _init(rng, "wh", (10, 128), 0.1), _init(rng, "bh", (10,), 0.1)]
    nodes = [
        h.make_node("Conv", ["x", "wp", "bp"], ["p"], kernel_shape=[7, 7], strides=[7, 7]),
        h.make_node("Reshape", ["p", "s1"], ["p2"]), h.make_node("Transpose", ["p2"], ["tok"], perm=[0, 2, 1]),
        h.make_node("MatMul", ["tok", "wq"], ["q"]), h.make_node("MatMul", ["tok", "wk"], ["k"]),
        h.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]), h.make_node("MatMul", ["q", "kt"], ["att"]),
        h.make_node("Softmax", ["att"], ["prob"], axis=-1), h.make_node("MatMul", ["prob", "tok"], ["ctx"]),
        h.make_node("Reshape", ["ctx", "s2"], ["f"]), h.make_node("Gemm", ["f", "wh", "bh"], ["y"], transB=1)]
    return _model(nodes, inits, [1, 10])


def standalone_clamps() -> onnx.ModelProto:
    """Relu and Clip(0, 6) that onnxruntime cannot fold (their input has two consumers), then Concat."""
    rng = np.random.default_rng(3)
    inits = [_init(rng, "w1", (4, 1, 3, 3)), _init(rng, "b1", (4,), 0.1), _init(rng, "wm", (8 * 14 * 14, 10), 0.05),
             nh.from_array(np.array([1, 8 * 14 * 14], np.int64), "shape"),
             nh.from_array(np.array(0, np.float32), "lo"), nh.from_array(np.array(6, np.float32), "hi")]
    nodes = [h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
             h.make_node("Relu", ["c1"], ["r"]), h.make_node("Clip", ["c1", "lo", "hi"], ["r6"]),
             h.make_node("Concat", ["r", "r6"], ["cat"], axis=1), h.make_node("Reshape", ["cat", "shape"], ["rs"]),
             h.make_node("MatMul", ["rs", "wm"], ["y"])]
    return _model(nodes, inits, [1, 10])


def hardswish_qdq(tmp_path) -> onnx.ModelProto:
    """Conv → HardSwish → Reshape → MatMul, quantised; onnxruntime leaves HardSwish float, so its output gets
    the QuantizeLinear/DequantizeLinear pair of the following Reshape (same values, same range)."""
    rng = np.random.default_rng(3)
    inits = [_init(rng, "w1", (4, 1, 3, 3)), _init(rng, "b1", (4,), 0.1), _init(rng, "wm", (4 * 14 * 14, 10), 0.05),
             nh.from_array(np.array([1, 4 * 14 * 14], np.int64), "shape")]
    nodes = [h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
             h.make_node("HardSwish", ["c1"], ["t"]), h.make_node("Reshape", ["t", "shape"], ["rs"]),
             h.make_node("MatMul", ["rs", "wm"], ["y"])]
    q = quantize(_model(nodes, inits, [1, 10], opset=14), tmp_path)
    body = list(q.graph.node)
    i = next(k for k, n in enumerate(body) if n.op_type == "Reshape")
    body[i].input[0] = "t_dq"
    pair = [h.make_node("QuantizeLinear", ["t", "rs_scale", "rs_zero_point"], ["t_q"]),
            h.make_node("DequantizeLinear", ["t_q", "rs_scale", "rs_zero_point"], ["t_dq"])]
    del q.graph.node[:]
    q.graph.node.extend(body[:i] + pair + body[i:])
    onnx.checker.check_model(q)
    return q


def _model(nodes, inits, out_shape, opset: int = 13) -> onnx.ModelProto:
    g = h.make_graph(nodes, "test", [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 28, 28])],
                     [h.make_tensor_value_info("y", T.FLOAT, out_shape)], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def calibration(n: int = 16, seed: int = 7) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, 1, 1, 28, 28)).astype(np.float32)


def quantize(model: onnx.ModelProto, tmp_path, per_channel: bool = True) -> onnx.ModelProto:
    """onnxruntime quantize_static QDQ: int8 asymmetric activations, int8 symmetric weights."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.it = iter([{"x": b} for b in calibration()])

        def get_next(self):
            return next(self.it, None)

    src, dst = tmp_path / "float.onnx", tmp_path / "qdq.onnx"
    onnx.save(model, src)
    quantize_static(str(src), str(dst), Reader(), quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8,
                    weight_type=QuantType.QInt8, per_channel=per_channel,
                    extra_options={"WeightSymmetric": True, "ActivationSymmetric": False})
    return onnx.load(dst)


def write_committed(folder) -> None:
    """Regenerate tests/engine/data/<name>_qdq.onnx and <name>_inputs.npz (the LiteRT cross-check fixtures)."""
    import tempfile
    from pathlib import Path

    folder = Path(folder)
    for name, build in (("cnn", cnn), ("elementwise", elementwise), ("attention_lite", attention_lite)):
        onnx.save(quantize(build(), Path(tempfile.mkdtemp())), folder / f"{name}_qdq.onnx")
        np.savez_compressed(folder / f"{name}_inputs.npz", x=(calibration(8, seed=11)[:, 0] * 1.5).astype(np.float32))
