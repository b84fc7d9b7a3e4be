"""Integer export: op kinds, declared rounding, integer parameter types, save/load, bad input."""
import numpy as np
import onnx
import pytest

from npuready.engine import intgraph, numpy_engine
from npuready.engine.export import export_integer_graph
from npuready.errors import InputError


def test_cnn_exports_expected_ops_with_declared_rounding(qdq_models):
    g = export_integer_graph(qdq_models["cnn"], rounding="single")
    assert [op.kind for op in g.ops] == ["Quantize", "Conv", "Conv", "Conv", "Conv", "Add", "MaxPool",
                                         "AveragePool", "Mean", "Reshape", "Gemm"]
    assert set(g.roundings().values()) == {"single"} and g.rounding == "single"
    conv = g.ops[1]
    assert conv.params["weight"].dtype == np.int8 and conv.params["bias"].dtype == np.int32
    assert conv.params["multiplier"].shape == (8,) and conv.params["multiplier"].dtype == np.int32
    assert np.all(conv.params["multiplier"] >= 1 << 30)
    depthwise = g.ops[2]
    assert depthwise.params["group"] == 8 and depthwise.params["strides"] == [2, 2]


def test_fused_relu_becomes_clamp(qdq_models):
    g = export_integer_graph(qdq_models["cnn"])
    for op in g.ops[1:]:
        lo = op.params.get("act_min", -128)
        assert -128 <= lo <= op.params.get("act_max", 127) <= 127


def test_elementwise_exports_lut_mul_concat_transpose(qdq_models):
    g = export_integer_graph(qdq_models["elementwise"])
    kinds = [op.kind for op in g.ops]
    assert kinds == ["Quantize", "Conv", "Lut", "Lut", "Lut", "Mul", "Concat", "Transpose", "Reshape", "Gemm"]
    sigmoid = g.ops[2]
    assert sigmoid.params["table"].shape == (256,) and sigmoid.params["function"] == "Sigmoid"


def test_save_load_roundtrip_runs_identically(qdq_models, tmp_path):
    g = export_integer_graph(qdq_models["elementwise"])
    path = intgraph.save(g, tmp_path / "g.npz")
    g2 = intgraph.load(path)
    x = np.random.default_rng(0).standard_normal((2, 1, 28, 28)).astype(np.float32)
    a, b = numpy_engine.run(g, x), numpy_engine.run(g2, x)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert g2.roundings() == g.roundings()


def test_conv_matches_naive_integer_loop(qdq_models):
    g = export_integer_graph(qdq_models["cnn"])
    op = g.ops[4]  # grouped 3x3 conv, group 4
    p = op.params
    x = np.random.default_rng(5).integers(-128, 128, size=(1, 16, 5, 5)).astype(np.int8)
    from npuready.engine.ops import conv

    acc = conv.accumulate(p, x)
    w, zp = p["weight"].astype(int), p["input_zero_point"]
    cg = w.shape[1]
    for oc in (0, 5, 15):
        gi = oc // (16 // p["group"])
        for oy, ox in ((0, 0), (2, 3), (4, 4)):
            s = int(p["bias"][oc])
            for ic in range(cg):
                for ky in range(3):
                    for kx in range(3):
                        iy, ix = oy - 1 + ky, ox - 1 + kx
                        if 0 <= iy < 5 and 0 <= ix < 5:
                            s += (int(x[0, gi * cg + ic, iy, ix]) - zp) * int(w[oc, ic, ky, kx])
            assert int(acc[0, oc, oy, ox]) == s


def test_float_model_is_refused_with_input_error():
    from models import cnn

    with pytest.raises(InputError, match="not followed by a QuantizeLinear"):
        export_integer_graph(cnn())


def test_unknown_rounding_is_refused(qdq_models):
    with pytest.raises(InputError, match="unknown"):
        export_integer_graph(qdq_models["cnn"], rounding="stochastic")


def test_wrong_input_shape_is_refused(qdq_models):
    g = export_integer_graph(qdq_models["cnn"])
    with pytest.raises(InputError, match="does not match"):
        numpy_engine.run(g, np.zeros((1, 3, 28, 28), np.float32))


def test_tflite_ref_profile_declares_single_rounding_on_gemm_only(qdq_models):
    g = export_integer_graph(qdq_models["cnn"])  # default profile
    assert g.rounding == "tflite-ref"
    assert {op.kind: op.rounding for op in g.ops} == {
        "Quantize": "double", "Conv": "double", "Add": "double", "MaxPool": "double", "AveragePool": "double",
        "Mean": "double", "Reshape": "double", "Gemm": "single"}


def test_attention_block_exports_integer_transformer_ops(qdq_models):
    g = export_integer_graph(qdq_models["attention"])
    kinds = [op.kind for op in g.ops]
    assert kinds == ["Quantize", "Conv", "Reshape", "Transpose", "LayerNorm", "Gemm", "Reshape", "Transpose",
                     "Gather", "Gather", "Gather", "Transpose", "MatMul", "Constant", "Mul", "Softmax", "MatMul",
                     "Lut", "Constant", "Add", "Mul", "Constant", "Mul", "Mean", "Gemm"]
    assert g.batchable is False  # the qkv transpose moves the batch axis: engines run image by image
    lut = g.ops[kinds.index("Lut")]
    assert lut.params["function"] == "Div→Erf"
    x = np.random.default_rng(0).standard_normal((3, 1, 28, 28)).astype(np.float32)
    batch = numpy_engine.run(g, x)
    single = [numpy_engine.run(g, x[i:i + 1]) for i in range(3)]
    for name, v in batch.items():
        assert np.array_equal(v, np.concatenate([s[name] for s in single]))


def test_integer_softmax_rows_sum_close_to_one(qdq_models):
    from npuready.engine.ops import softmax

    g = export_integer_graph(qdq_models["attention"])
    op = next(o for o in g.ops if o.kind == "Softmax")
    x = np.random.default_rng(1).integers(-128, 128, size=(2, 16, 16)).astype(np.int8)
    y = softmax.run(op, [x])
    t = g.tensors[op.outputs[0]]
    sums = ((y.astype(np.float64) - t.zero_point) * t.scale).sum(axis=-1)
    assert np.all(np.abs(sums - 1) <= 16 * t.scale)  # each of 16 codes rounds by at most half an LSB


def _with(model, name, fn):
    from onnx import numpy_helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    init = next(i for i in m.graph.initializer if i.name == name)
    init.CopyFrom(numpy_helper.from_array(fn(numpy_helper.to_array(init).copy()), name))
    return m


def test_bias_is_used_as_stored_when_its_scale_is_input_times_weight_scale(qdq_models):
    from onnx import numpy_helper

    g = export_integer_graph(qdq_models["cnn"])
    stored = {i.name: numpy_helper.to_array(i) for i in qdq_models["cnn"].graph.initializer}
    assert np.array_equal(g.ops[1].params["bias"], stored["b1_quantized"])
    assert np.array_equal(g.ops[-1].params["bias"], stored["bf_quantized"])


@pytest.mark.parametrize("name, fn, message", [
    ("b1_quantized_scale", lambda a: a * np.float32(2), r"^bias b1_quantized \(scale b1_quantized_scale, node .*\): "
     r"stored scale\[0\] = .* is not input scale × weight scale = .* \(relative tolerance 1e-06, 8 of 8 channels "
     r"off\)"),
    ("bf_quantized_scale", lambda a: np.where(np.arange(a.size) == 3, np.nan, a).astype(a.dtype),
     r"^scale bf_quantized_scale\[3\] = nan: a quantisation scale must be finite and > 0 \(1 of 10 bad\)"),
    ("r1_scale", lambda a: np.zeros_like(a), r"^scale r1_scale = 0.0: a quantisation scale must be finite and > 0"),
    ("w2_scale", lambda a: np.full_like(a, np.inf), r"^scale w2_scale\[0\] = inf: "),
    ("b2_quantized_zero_point", lambda a: np.ones_like(a), r"^bias b2_quantized \(scale b2_quantized_scale, node .*\): "
     r"zero point is not 0"),
])
def test_stored_scales_the_integer_build_cannot_use_are_refused(qdq_models, name, fn, message):
    from npuready.engine.export import QuantParamError

    with pytest.raises(QuantParamError, match=message):
        export_integer_graph(_with(qdq_models["cnn"], name, fn))


def test_a_graph_output_renamed_by_identity_is_read_through_it(qdq_models):
    """Paddle2ONNX ends its graphs with Identity(DequantizeLinear output)."""
    from onnx import helper

    m = onnx.ModelProto()
    m.CopyFrom(qdq_models["cnn"])
    out = m.graph.output[0]
    m.graph.node.append(helper.make_node("Identity", [out.name], ["renamed"], name="rename"))
    out.name = "renamed"
    g = export_integer_graph(m)
    assert g.outputs == export_integer_graph(qdq_models["cnn"]).outputs
