"""Small float ONNX models with deliberately uneven per-channel weight ranges (advanced-PTQ tests)."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def _w(rng, name, shape, spread=True):
    w = rng.standard_normal(shape).astype(np.float32) * 0.3
    if spread:  # per-output-channel ranges over two decades: what CLE and per-tensor quant care about
        factors = np.logspace(-1, 1, shape[0]).astype(np.float32)[rng.permutation(shape[0])]
        w *= factors.reshape(-1, *[1] * (len(shape) - 1))
    return nh.from_array(w.astype(np.float32), name)


def chain(seed: int = 0) -> onnx.ModelProto:
    """Conv→Relu→MaxPool→Conv→Relu→grouped Conv→Relu→Conv(1×1)→Clip→depthwise Conv→GAP→Flatten→Gemm
    (16×16 input)."""
    rng = np.random.default_rng(seed)
    inits = [_w(rng, "w1", (8, 1, 3, 3)), nh.from_array(rng.standard_normal(8).astype(np.float32) * 0.1, "b1"),
             _w(rng, "w2", (16, 8, 3, 3)), nh.from_array(rng.standard_normal(16).astype(np.float32) * 0.1, "b2"),
             _w(rng, "w3", (16, 4, 3, 3)), nh.from_array(rng.standard_normal(16).astype(np.float32) * 0.1, "b3"),
             _w(rng, "w4", (8, 16, 1, 1)), nh.from_array(rng.standard_normal(8).astype(np.float32) * 0.1, "b4"),
             _w(rng, "w5", (8, 1, 3, 3)), nh.from_array(rng.standard_normal(8).astype(np.float32) * 0.1, "b5"),
             _w(rng, "wf", (10, 8), spread=False), nh.from_array(np.zeros(10, np.float32), "bf"),
             nh.from_array(np.array(0, np.float32), "lo"), nh.from_array(np.array(6, np.float32), "hi")]
    nodes = [
        h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        h.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        h.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], name="pool1"),
        h.make_node("Conv", ["p1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], name="conv2"),
        h.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        h.make_node("Conv", ["r2", "w3", "b3"], ["c3"], pads=[1, 1, 1, 1], group=4, name="conv3"),
        h.make_node("Relu", ["c3"], ["r3"], name="relu3"),
        h.make_node("Conv", ["r3", "w4", "b4"], ["c4"], name="conv4"),
        h.make_node("Clip", ["c4", "lo", "hi"], ["r4"], name="clip4"),
        h.make_node("Conv", ["r4", "w5", "b5"], ["c5"], pads=[1, 1, 1, 1], group=8, name="conv5"),
        h.make_node("GlobalAveragePool", ["c5"], ["g"], name="gap"),
        h.make_node("Flatten", ["g"], ["f"], name="flatten"),
        h.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1, name="fc")]
    g = h.make_graph(nodes, "chain", [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 16, 16])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 10])], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def calibration(n: int = 16, seed: int = 7) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((1, 1, 16, 16)).astype(np.float32) for _ in range(n)]


def run(model: onnx.ModelProto, batches) -> np.ndarray:
    import onnxruntime as ort

    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return np.concatenate([s.run(None, {"x": x})[0] for x in batches])
