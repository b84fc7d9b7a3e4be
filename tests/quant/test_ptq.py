"""PTQ writes QDQ ONNX that onnxruntime runs; minmax reproduces onnxruntime's baseline exactly."""
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
import models  # noqa: E402

from npuready.errors import InputError  # noqa: E402
from npuready.quant.ptq import baseline_model, quantize_model  # noqa: E402


def _scales(m):
    return {t.name: numpy_helper.to_array(t).tolist() for t in m.graph.initializer if t.name.endswith("_scale")}


@pytest.fixture(scope="module")
def calib():
    return list(models.calibration(8))


def test_minmax_equals_onnxruntime_baseline(calib):
    m = models.cnn()
    ours, base = quantize_model(m, calib, "minmax"), baseline_model(m, calib)
    assert _scales(ours) == _scales(base)


@pytest.mark.parametrize("method", ["percentile", "mse", "entropy"])
def test_every_method_writes_a_runnable_qdq_model(calib, method):
    q = quantize_model(models.cnn(), calib, method)
    ops = {n.op_type for n in q.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv", "Gemm"} <= ops
    s = ort.InferenceSession(q.SerializeToString(), providers=["CPUExecutionProvider"])
    out = s.run(None, {"x": calib[0]})[0]
    assert out.shape == (1, 10) and np.isfinite(out).all()


def test_per_tensor_weights_have_one_scale(calib):
    q = quantize_model(models.cnn(), calib, "minmax", per_channel=False)
    assert np.asarray(_scales(q)["w1_scale"]).size == 1
    q = quantize_model(models.cnn(), calib, "minmax", per_channel=True)
    assert np.asarray(_scales(q)["w1_scale"]).size == 8


def test_uint8_activations(calib):
    q = quantize_model(models.cnn(), calib, "minmax", activation_type="uint8")
    zps = [t for t in q.graph.initializer if t.name == "x_zero_point"]
    assert zps[0].data_type == onnx.TensorProto.UINT8


def test_bad_method_and_empty_calibration_are_input_errors(calib):
    with pytest.raises(InputError, match="unknown"):
        quantize_model(models.cnn(), calib, "magic")
    with pytest.raises(InputError, match="empty"):
        quantize_model(models.cnn(), [], "minmax")


def test_a_sub_ending_the_graph_is_quantised_and_runs_on_the_integer_engine():
    """YOLO's box decode ends an NPU body with Sub: onnxruntime's default op types leave it in float."""
    from onnx import TensorProto as T, helper as h, numpy_helper as nh

    from npuready.engine.export import export_integer_graph
    from npuready.engine.numpy_engine import run

    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32)
    offset = rng.normal(0, 1, (1, 4, 1, 1)).astype(np.float32)
    g = h.make_graph([h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
                      h.make_node("Sub", ["c", "offset"], ["y"])], "conv_sub",
                     [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 8, 8])],
                     initializer=[nh.from_array(w, "w"), nh.from_array(offset, "offset")])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    x = [rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for _ in range(8)]
    q = quantize_model(model, x)
    producer = {o: n.op_type for n in q.graph.node for o in n.output}
    assert producer[q.graph.output[0].name] == "DequantizeLinear"
    graph = export_integer_graph(q)
    assert [op.kind for op in graph.ops].count("Add") == 1  # the Sub, as TFLite's SUB: an Add of a negated input
    assert run(graph, x[0], keep=False)


def test_prelu_output_and_slope_are_quantised_so_the_integer_engine_runs_it():
    """MTCNN: onnxruntime's default op types leave PRelu (slope and output) in float."""
    from onnx import TensorProto as T, helper as h, numpy_helper as nh

    from npuready.engine.export import export_integer_graph

    rng = np.random.default_rng(1)
    w = rng.normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32)
    slope = rng.uniform(0.05, 0.4, (4, 1, 1)).astype(np.float32)
    g = h.make_graph([h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
                      h.make_node("PRelu", ["c", "slope"], ["p"]), h.make_node("MaxPool", ["p"], ["y"],
                                                                                kernel_shape=[2, 2], strides=[2, 2])],
                     "conv_prelu", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 4, 4])],
                     initializer=[nh.from_array(w, "w"), nh.from_array(slope, "slope")])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    q = quantize_model(model, [rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for _ in range(8)])
    producer = {o: n for n in q.graph.node for o in n.output}
    prelu = next(n for n in q.graph.node if n.op_type == "PRelu")
    assert producer[prelu.input[1]].op_type == "DequantizeLinear"
    assert any(n.op_type == "QuantizeLinear" and n.input[0] == prelu.output[0] for n in q.graph.node)
    assert [op.kind for op in export_integer_graph(q).ops] == ["Quantize", "Conv", "PRelu", "MaxPool"]


def test_div_by_a_constant_before_a_maxpool_is_quantised():
    """PaddleOCR's hard-swish ends in Div by 6 feeding a MaxPool: onnxruntime's default op types leave it float."""
    from onnx import TensorProto as T, helper as h, numpy_helper as nh

    from npuready.engine.export import export_integer_graph

    rng = np.random.default_rng(2)
    w = rng.normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32)
    g = h.make_graph([h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
                      h.make_node("Div", ["c", "six"], ["d"]), h.make_node("MaxPool", ["d"], ["y"],
                                                                           kernel_shape=[2, 2], strides=[2, 2])],
                     "conv_div", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 4, 4])],
                     initializer=[nh.from_array(w, "w"), nh.from_array(np.array(6.0, np.float32), "six")])
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    q = quantize_model(model, [rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for _ in range(8)])
    div = next(n for n in q.graph.node if n.op_type == "Div")
    assert any(n.op_type == "QuantizeLinear" and n.input[0] == div.output[0] for n in q.graph.node)
    assert [op.kind for op in export_integer_graph(q).ops] == ["Quantize", "Conv", "Constant", "Mul", "MaxPool"]


def test_an_input_read_only_by_slices_is_quantised():
    """YOLOX's space-to-depth: four Slices of the input, then Concat and Conv; onnxruntime would leave the
    input float (a Slice quantises only an already quantised input)."""
    from onnx import TensorProto as T, helper as h, numpy_helper as nh

    from npuready.engine.export import export_integer_graph

    rng = np.random.default_rng(3)
    c = lambda v: nh.from_array(np.array(v, np.int64), f"k{'_'.join(map(str, v))}")  # noqa: E731
    inits = [c([0]), c([1]), c([8]), c([2]), c([3]),
             nh.from_array(rng.normal(0, 0.5, (4, 12, 1, 1)).astype(np.float32), "w")]
    nodes = [h.make_node("Slice", ["x", f"k{a}", "k8", "k2", "k2"], [f"s{a}"]) for a in (0, 1)]
    nodes += [h.make_node("Slice", [f"s{a}", f"k{b}", "k8", "k3", "k2"], [f"t{a}{b}"]) for a in (0, 1) for b in (0, 1)]
    nodes += [h.make_node("Concat", ["t00", "t10", "t01", "t11"], ["cat"], axis=1),
              h.make_node("Conv", ["cat", "w"], ["y"])]
    g = h.make_graph(nodes, "focus", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 4, 4])], initializer=inits)
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    q = quantize_model(model, [rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for _ in range(8)])
    assert any(n.op_type == "QuantizeLinear" and n.input[0] == "x" for n in q.graph.node)
    assert [op.kind for op in export_integer_graph(q).ops].count("Slice") == 6
