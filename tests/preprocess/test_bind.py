import onnx
import pytest
from onnx import TensorProto, helper

from npuready.errors import InputError
from npuready.preprocess.bind import bind_to_model, image_input
from npuready.preprocess.presets import PRESETS
from npuready.preprocess.spec import PreprocessSpec


def test_yolo_640_on_a_1280_export_is_refused_naming_both_sizes(model_file):
    with pytest.raises(InputError) as info:
        bind_to_model(PRESETS["yolo_640"], model_file(size=1280))
    msg = str(info.value)
    assert "makes 640x640 images" in msg and "is 1280x1280" in msg and "use yolo_1280 of size 1280x1280" in msg


def test_matching_preset_binds_and_names_the_input(model_file):
    bound = bind_to_model(PRESETS["yolo_1280"], model_file(size=1280))
    assert bound.image_input == "image" and bound.letterbox == (1280, 1280)


@pytest.mark.parametrize("name, field, value", [
    ("classification", "resize", (96, 96)), ("detection", "letterbox", (96, 96)),
    ("vision_transformer", "resize", (96, 96)),
])
def test_model_sized_presets_take_the_model_size(model_file, name, field, value):
    bound = bind_to_model(PRESETS[name], model_file(size=96))
    assert getattr(bound, field) == value and bound.fit_model_size is None


def test_channel_count_and_layout_rank_are_checked(model_file):
    gray = model_file(size=28, channels=1)
    with pytest.raises(InputError, match="makes 3-channel RGB images but model input 'image' \\[1, 1, 28, 28\\] has 1"):
        bind_to_model(PRESETS["classification"], gray)
    with pytest.raises(InputError, match="has rank 4, but the spec's layout is HWC"):
        bind_to_model(PRESETS["classification"].replace(layout="HWC"), gray)


def _two_input_model(dtype=TensorProto.FLOAT):
    inputs = [helper.make_tensor_value_info("pixels", dtype, [1, 3, 8, 8]),
              helper.make_tensor_value_info("tokens", TensorProto.FLOAT, [1, 3, 8, 8])]
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 8])
    nodes = [helper.make_node("Cast", ["pixels"], ["pf"], to=TensorProto.FLOAT),
             helper.make_node("Add", ["pf", "tokens"], ["y"])]
    return helper.make_model(helper.make_graph(nodes, "mm", inputs, [out]), opset_imports=[helper.make_opsetid("", 17)])


def test_multimodal_needs_the_image_input_named():
    model = _two_input_model()
    with pytest.raises(InputError, match="2 image-like inputs \\(pixels, tokens\\); name the image input"):
        bind_to_model(PRESETS["multimodal"], model)
    bound = bind_to_model(PRESETS["multimodal"].replace(image_input="pixels"), model)
    assert bound.resize == (8, 8) and bound.image_input == "pixels"
    with pytest.raises(InputError, match="no input named 'photo'"):
        image_input(model, "photo")


def test_uint8_model_refuses_a_float_spec():
    model = _two_input_model(TensorProto.UINT8)
    spec = PreprocessSpec(name="f", resize=(8, 8), scale=1 / 255, image_input="pixels")
    with pytest.raises(InputError, match="makes float32 tensors but model input 'pixels' \\[1, 3, 8, 8\\] takes uint8"):
        bind_to_model(spec, model)
    onnx.checker.check_model(model)
