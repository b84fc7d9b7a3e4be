import pytest

from npuready.errors import InputError
from npuready.preprocess.presets import IMAGENET_MEAN, IMAGENET_STD, PRESETS
from npuready.preprocess.spec import PreprocessSpec


@pytest.mark.parametrize("changes, message", [
    ({"color": "YUV"}, "color='YUV' is not one of RGB, BGR, GRAY"),
    ({"layout": "CHW"}, "layout='CHW' is not one of HWC, NHWC, NCHW"),
    ({"interpolation": "area"}, "interpolation='area'"),
    ({"center_crop": (224, 224), "letterbox": (640, 640)}, "centre crop and letterbox both set"),
    ({"letterbox": (640, 640), "resize": 256}, "letterbox does its own aspect-preserving resize"),
    ({"mean": (0.5, 0.5, 0.5)}, "mean and std go together"),
    ({"mean": (0.5,), "std": (0.5,)}, "mean/std need 3 values for RGB"),
    ({"mean": (0.5,) * 3, "std": (0.5, 0.0, 0.5)}, "std values must be > 0"),
    ({"pad_value": 300}, "pad_value 300 outside 0..255"),
    ({"dtype": "uint8", "scale": 1 / 255}, "uint8 input with scale/mean/std needs fuse_normalization=true"),
    ({"fuse_normalization": True}, "fuse_normalization means the model takes raw uint8 pixels"),
    ({"fit_model_size": "stretch"}, "fit_model_size='stretch' is not 'resize' or 'letterbox'"),
    ({"fit_model_size": "resize", "center_crop": (8, 8)}, "fit_model_size with a fixed size"),
    ({"resize": "big"}, "resize: 'big' is not a size"),
])
def test_invalid_specs_are_refused_naming_the_field(changes, message):
    with pytest.raises(InputError, match=None) as info:
        PreprocessSpec(name="s", **changes)
    assert message in str(info.value) and "spec 's'" in str(info.value)


def test_lists_from_json_become_tuples_and_round_trip():
    spec = PreprocessSpec(name="x", resize=[32, 48], center_crop=[16, 16], mean=[0.1, 0.2, 0.3], std=[1, 2, 3])
    assert spec.resize == (32, 48) and spec.center_crop == (16, 16) and spec.std == (1.0, 2.0, 3.0)
    assert PreprocessSpec.from_dict(spec.to_dict()) == spec


def test_from_dict_rejects_unknown_fields():
    with pytest.raises(InputError, match="unknown field\\(s\\) colour"):
        PreprocessSpec.from_dict({"colour": "RGB"}, name="mine")


@pytest.mark.parametrize("name, expected", [
    ("classification", "0..1"), ("classification_torchvision", "0..255"), ("detection", "0..1"),
    ("yolo_640", "0..255"), ("yolo_1280", "0..255"), ("vision_transformer", "0..1"), ("multimodal", "0..1"),
])
def test_value_range_of_every_preset(name, expected):
    assert PRESETS[name].value_range == expected


def test_value_range_of_normalised_and_unscaled_specs():
    assert PRESETS["classification_torchvision"].unfused().value_range == "normalized"
    assert PreprocessSpec(name="raw").value_range == "0..255"
    assert PreprocessSpec(name="half", scale=0.5).value_range == "scaled"


def test_shape_per_layout():
    base = PreprocessSpec(name="s", resize=(20, 30))
    assert base.shape() == (1, 3, 20, 30)
    assert base.replace(layout="NHWC").shape() == (1, 20, 30, 3)
    assert base.replace(layout="HWC", color="GRAY").shape() == (20, 30, 1)
    with pytest.raises(InputError, match="no fixed image size"):
        PreprocessSpec(name="free").shape()


def test_unfused_is_the_float_model_input():
    tv = PRESETS["classification_torchvision"]
    plain = tv.unfused()
    assert (plain.dtype, plain.fuse_normalization, plain.mean, plain.std) == ("float32", False, IMAGENET_MEAN,
                                                                              IMAGENET_STD)
    assert plain.unfused() is plain


def test_with_size_fills_resize_or_letterbox():
    assert PRESETS["classification"].with_size((32, 40)).resize == (32, 40)
    det = PRESETS["detection"].with_size((96, 96))
    assert (det.letterbox, det.fit_model_size) == ((96, 96), None)
    assert PRESETS["yolo_640"].with_size((1, 1)) is PRESETS["yolo_640"]
