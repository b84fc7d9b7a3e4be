import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.errors import InputError
from npuready.preprocess.example_models import conv_classifier
from npuready.preprocess.fusion import fuse_normalization
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS
from npuready.preprocess.sources import TEST_PHOTOS

TV = PRESETS["classification_torchvision"]


def _run(model, x):
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"image": x})[0]


def _max_diff(original, fused, photos, input_float=False):
    worst = 0.0
    for name in TEST_PHOTOS:
        raw = apply(TV, photos[name])
        reference = _run(original, apply(TV.unfused(), photos[name]))
        out = _run(fused, raw.astype(np.float32) if input_float else raw)
        worst = max(worst, float(np.abs(out - reference).max()))
    return worst


@pytest.mark.parametrize("pads, kernel, strategy", [(0, 2, "fold"), (1, 3, "subtract")])
def test_fused_uint8_equals_original_normalised_float_on_real_photos(photos, pads, kernel, strategy):
    original = conv_classifier(first_pads=pads, first_kernel=kernel)
    result = fuse_normalization(original, TV)
    assert result.strategy == strategy and result.convs == ("conv1",) and result.input_dtype == "uint8"
    assert result.model.graph.input[0].type.tensor_type.elem_type == TensorProto.UINT8
    ops = [n.op_type for n in result.model.graph.node]
    assert ops[:3] == (["Cast", "Sub", "Conv"] if strategy == "subtract" else ["Cast", "Conv", "Relu"])
    assert _max_diff(original, result.model, photos) <= 1e-4
    assert "raw uint8 RGB pixels 0..255 after resize/crop/letterbox, before scale/mean/std" in result.calibration


def test_float_0_255_input_variant_has_no_cast(photos):
    original = conv_classifier(first_pads=1)
    result = fuse_normalization(original, TV, input_dtype="float32")
    assert [n.op_type for n in result.model.graph.node][0] == "Sub"
    assert result.model.graph.input[0].type.tensor_type.elem_type == TensorProto.FLOAT
    assert _max_diff(original, result.model, photos, input_float=True) <= 1e-4


def test_padding_caveat_pure_fold_is_refused_and_would_be_wrong_at_the_border(photos):
    original = conv_classifier(first_pads=1)
    with pytest.raises(InputError, match="the first Conv pads its input; zero padding of the normalised input"):
        fuse_normalization(original, TV, strategy="fold")
    naive = fuse_normalization(original, TV, strategy="fold", _ignore_padding=True)
    assert _max_diff(original, naive.model, photos) > 1e-3


def test_first_conv_weights_are_scaled_per_channel():
    original = conv_classifier(first_pads=0, first_kernel=2)
    fused = fuse_normalization(original, TV).model
    w = {t.name: numpy_helper.to_array(t) for t in original.graph.initializer}["conv1.W"]
    w2 = {t.name: numpy_helper.to_array(t) for t in fused.graph.initializer}["conv1__W_fused"]
    factor = (1 / 255) / np.array(TV.std)
    np.testing.assert_allclose(w2, w * factor[None, :, None, None], rtol=1e-6)


def _model(first_op: str, **attrs):
    x = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 8])
    inits = [numpy_helper.from_array(np.ones((3, 1, 1, 1), np.float32), "W")]
    node = helper.make_node(first_op, ["image", "W"] if first_op == "Conv" else ["image"], ["y"], **attrs)
    return helper.make_model(helper.make_graph([node], "g", [x], [y], inits),
                             opset_imports=[helper.make_opsetid("", 17)])


def test_unsupported_graphs_are_input_errors():
    with pytest.raises(InputError, match="input 'image' feeds Relu_0 \\(Relu\\); fusion folds into Conv only"):
        fuse_normalization(_model("Relu"), TV)
    with pytest.raises(InputError, match="has group=3; fusion supports group=1 only"):
        fuse_normalization(_model("Conv", group=3, kernel_shape=[1, 1]), TV)
    with pytest.raises(InputError, match="has no scale/mean/std to fuse"):
        fuse_normalization(_model("Conv"), TV.replace(scale=None, mean=None, std=None, fuse_normalization=False))
    with pytest.raises(InputError, match="fusion strategy 'magic'"):
        fuse_normalization(_model("Conv"), TV, strategy="magic")


def test_result_is_a_valid_model_and_serialises():
    result = fuse_normalization(conv_classifier(first_pads=1), TV)
    onnx.checker.check_model(result.model, full_check=True)
    assert result.to_dict() == {"strategy": "subtract", "input": "image", "input_dtype": "uint8", "convs": ["conv1"],
                                "calibration": result.calibration}


def test_scale_only_spec_folds_even_when_the_conv_pads(photos):
    original = conv_classifier(first_pads=1)
    spec = TV.replace(mean=None, std=None)  # x/255 only: zero padding of x/255 is zero padding of x
    result = fuse_normalization(original, spec)
    assert result.strategy == "fold" and [n.op_type for n in result.model.graph.node][:2] == ["Cast", "Conv"]
    worst = max(float(np.abs(_run(result.model, apply(spec, photos[n]))
                             - _run(original, apply(spec.unfused(), photos[n]))).max())
                for n in TEST_PHOTOS)
    assert worst <= 1e-4
