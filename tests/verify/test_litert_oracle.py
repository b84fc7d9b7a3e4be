"""The integer engine matches LiteRT's reference kernels bit for bit on a committed model and input batch."""
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ai_edge_litert")

from npuready.engine import cpp_engine, numpy_engine  # noqa: E402
from npuready.engine.export import export_integer_graph  # noqa: E402
from npuready.verify.litert_oracle import compare_with_litert  # noqa: E402

DATA = Path(__file__).parents[1] / "engine" / "data"


@pytest.mark.parametrize("name", ["cnn", "elementwise", "attention_lite"])
@pytest.mark.parametrize("engine", [numpy_engine, cpp_engine], ids=["numpy", "cpp"])
def test_every_tensor_matches_litert_reference(engine, name):
    """cnn: Conv (regular, depthwise, grouped), Add, MaxPool, AveragePool, Mean, Reshape, Gemm;
    elementwise: Sigmoid, Tanh, LeakyRelu, Mul, Concat (rescaling), Transpose, Reshape, MatMul;
    attention_lite: MatMul of two activations (BATCH_MATMUL), Softmax (+ requantise), bias-free Gemm."""
    model = str(DATA / f"{name}_qdq.onnx")
    x = np.load(DATA / f"{name}_inputs.npz")["x"]
    graph = export_integer_graph(model, rounding="tflite-ref")
    report = compare_with_litert(model, x, graph, engine=engine, optimized=False)
    s = report.summary()
    assert s["images"] == 8
    assert s["tensors_compared"] == 8 * len(graph.ops)
    assert s["tensors_mismatched"] == 0
    assert s["elements_mismatched_local"] == 0


def test_single_rounding_everywhere_differs_from_litert_reference_on_convs():
    """Evidence that the per-op declaration matters: LiteRT's REF CONV_2D rounds twice (gemmlowp)."""
    model = str(DATA / "cnn_qdq.onnx")
    x = np.load(DATA / "cnn_inputs.npz")["x"]
    graph = export_integer_graph(model, rounding="single")
    report = compare_with_litert(model, x, graph, optimized=False)
    convs = [t for t in report.ops if t.kind == "Conv"]
    assert sum(t.mismatched_local for t in convs) > 0


def test_hardswish_table_matches_litert_reference(tmp_path):
    import sys

    sys.path.insert(0, str(DATA.parent))
    from models import calibration, hardswish_qdq

    q = hardswish_qdq(tmp_path)
    graph = export_integer_graph(q)
    assert [op.kind for op in graph.ops] == ["Quantize", "Conv", "Lut", "Reshape", "Gemm"]
    report = compare_with_litert(q, calibration(6, seed=5)[:, 0] * 2, graph, optimized=False)
    lut = next(t for t in report.ops if t.kind == "Lut")
    assert lut.elements > 0 and lut.mismatched_local == 0 and lut.mismatched_propagated == 0
    assert report.tensors_mismatched == 0


def test_standalone_relu_and_clip_match_litert_reference(tmp_path):
    import sys

    sys.path.insert(0, str(DATA.parent))
    from models import calibration, quantize, standalone_clamps

    q = quantize(standalone_clamps(), tmp_path)
    graph = export_integer_graph(q)
    assert [op.kind for op in graph.ops] == ["Quantize", "Conv", "Rescale", "Rescale", "Concat", "Reshape", "Gemm"]
    report = compare_with_litert(q, calibration(6, seed=5)[:, 0] * 2, graph, optimized=False)
    assert report.tensors_mismatched == 0 and sum(t.mismatched_local for t in report.ops) == 0
