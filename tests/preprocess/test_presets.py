import numpy as np
import pytest

from npuready.errors import InputError
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import IMAGENET_MEAN, IMAGENET_STD, PRESETS, preset


def test_registry_holds_the_seed_presets_in_order():
    assert list(PRESETS) == ["classification", "classification_torchvision", "detection", "yolo_640", "yolo_1280",
                             "vision_transformer", "multimodal"]
    assert all(spec.name == name and spec.source.startswith("the founding list of input formats") for name, spec in PRESETS.items())


def test_classification_torchvision_is_the_imagenet_recipe_on_uint8_input():
    tv = PRESETS["classification_torchvision"]
    assert (tv.color, tv.dtype, tv.layout, tv.resize, tv.center_crop) == ("RGB", "uint8", "NCHW", 256, (224, 224))
    assert (tv.scale, tv.mean, tv.std, tv.fuse_normalization) == (1 / 255, IMAGENET_MEAN, IMAGENET_STD, True)


@pytest.mark.parametrize("size", [640, 1280])
def test_yolo_presets_letterbox_with_pad_114_on_uint8(size):
    y = PRESETS[f"yolo_{size}"]
    assert (y.letterbox, y.pad_value, y.dtype, y.scale, y.fuse_normalization) == ((size, size), 114, "uint8", 1 / 255, True)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_turns_a_photo_into_its_declared_tensor(name, photos):
    spec = PRESETS[name].with_size((96, 128))
    x = apply(spec, photos["chelsea"])
    assert x.shape == spec.shape() and x.dtype == np.dtype(spec.dtype)
    if spec.value_range == "0..1":
        assert 0.0 <= x.min() and x.max() <= 1.0


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(InputError, match="preset 'yolo_320': unknown; choose one of classification, "):
        preset("yolo_320")
