import numpy as np
import pytest

from npuready.errors import InputError
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import (FASHION_MNIST_MEAN, FASHION_MNIST_STD, IMAGENET_MEAN, IMAGENET_STD,
                                        PRESETS, preset)


def test_registry_holds_the_founding_presets_in_order():
    assert list(PRESETS) == ["classification", "classification_torchvision", "detection", "yolo_640", "yolo_1280",
                             "vision_transformer", "fashion_mnist_64_rgb", "multimodal", "paddleocr-det",
                             "paddleocr-rec", "imagenet-bgr", "mtcnn", "yolov8", "nudenet", "yolox"]
    assert all(spec.name == name for name, spec in PRESETS.items())
    assert [n for n, spec in PRESETS.items()
            if not spec.source.startswith("the founding list of input formats")] == \
        ["fashion_mnist_64_rgb", "paddleocr-det", "paddleocr-rec", "imagenet-bgr", "mtcnn", "yolov8", "nudenet",
         "yolox"]


def test_fashion_mnist_64_rgb_replicates_grey_to_three_equal_channels_at_64x64():
    spec = PRESETS["fashion_mnist_64_rgb"]
    image = np.zeros((28, 28), np.uint8)
    image[:, 14:] = 255  # left half black, right half white
    x = apply(spec, image)
    assert x.shape == (1, 3, 64, 64) and x.dtype == np.float32
    assert np.array_equal(x[0, 0], x[0, 1]) and np.array_equal(x[0, 0], x[0, 2])
    black, white = (0 - FASHION_MNIST_MEAN) / FASHION_MNIST_STD, (1 - FASHION_MNIST_MEAN) / FASHION_MNIST_STD
    np.testing.assert_allclose([x[0, 0, 10, 0], x[0, 0, 10, 63]], [black, white], rtol=1e-6)
    assert (spec.resize, spec.interpolation, spec.mean, spec.std) == \
        ((64, 64), "bilinear", (FASHION_MNIST_MEAN,) * 3, (FASHION_MNIST_STD,) * 3)


def test_classification_torchvision_is_the_imagenet_recipe_on_uint8_input():
    tv = PRESETS["classification_torchvision"]
    assert (tv.color, tv.dtype, tv.layout, tv.resize, tv.center_crop) == ("RGB", "uint8", "NCHW", 256, (224, 224))
    assert (tv.scale, tv.mean, tv.std, tv.fuse_normalization) == (1 / 255, IMAGENET_MEAN, IMAGENET_STD, True)


@pytest.mark.parametrize("size", [640, 1280])
def test_yolo_presets_letterbox_with_pad_114_on_uint8(size):
    y = PRESETS[f"yolo_{size}"]
    assert (y.letterbox, y.pad_value, y.dtype, y.scale, y.fuse_normalization) == ((size, size), 114, "uint8", 1 / 255,
                                                                                 True)


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
