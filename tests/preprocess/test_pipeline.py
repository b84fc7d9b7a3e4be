import numpy as np
import pytest
from PIL import Image

from npuready.errors import InputError
from npuready.preprocess.pipeline import apply, center_crop_box, decode, letterbox_geometry, resize_shorter, to_layout
from npuready.preprocess.presets import IMAGENET_MEAN, IMAGENET_STD, PRESETS
from npuready.preprocess.spec import PreprocessSpec

TV = PRESETS["classification_torchvision"]


def test_geometry_helpers_follow_torchvision_rounding():
    assert resize_shorter((300, 451), 256) == (256, 384)
    assert resize_shorter((640, 427), 256) == (383, 256)
    assert center_crop_box((256, 384), (224, 224)) == (80, 16, 304, 240)
    assert letterbox_geometry((427, 640), (640, 640)) == ((427, 640), (106, 0))
    assert letterbox_geometry((400, 600), (1280, 1280)) == ((853, 1280), (213, 0))
    with pytest.raises(InputError, match="centre crop 300x300: larger than the resized image 256x384"):
        center_crop_box((256, 384), (300, 300))


def test_torchvision_pipeline_step_by_step(photos):
    img = photos["chelsea"]  # 300 x 451
    im = Image.fromarray(img).resize((384, 256), Image.Resampling.BILINEAR).crop((80, 16, 304, 240))
    expected = np.asarray(im).transpose(2, 0, 1)[None]
    np.testing.assert_array_equal(apply(TV, img), expected)
    normalised = apply(TV.unfused(), img)
    manual = (expected.astype(np.float32) / 255 - np.array(IMAGENET_MEAN, np.float32)[:, None, None]) \
        / np.array(IMAGENET_STD, np.float32)[:, None, None]
    np.testing.assert_allclose(normalised, manual, atol=1e-6)


def test_bgr_is_the_reversed_channel_axis(photos):
    rgb = apply(TV, photos["coffee"])
    bgr = apply(TV.replace(color="BGR"), photos["coffee"])
    np.testing.assert_array_equal(bgr, rgb[:, ::-1])


def test_letterbox_pads_with_114_exactly_outside_the_content(photos):
    x = apply(PRESETS["yolo_640"], photos["china"])[0]  # 427 x 640 -> content rows 106..532
    assert x.shape == (3, 640, 640)
    assert np.all(x[:, :106] == 114) and np.all(x[:, 533:] == 114)
    assert not np.all(x[:, 106] == 114) and not np.all(x[:, 532] == 114)


def test_layouts_are_transposes_of_each_other(photos):
    nchw = apply(TV, photos["rocket"])
    hwc = apply(TV.replace(layout="HWC"), photos["rocket"])
    nhwc = apply(TV.replace(layout="NHWC"), photos["rocket"])
    assert hwc.shape == (224, 224, 3) and nhwc.shape == (1, 224, 224, 3)
    np.testing.assert_array_equal(to_layout(nchw, "NCHW", "HWC"), hwc)
    np.testing.assert_array_equal(to_layout(hwc, "HWC", "NHWC"), nhwc)
    np.testing.assert_array_equal(to_layout(nhwc, "NHWC", "NCHW"), nchw)


def test_gray_images_and_files(tmp_path, photos):
    spec = PreprocessSpec(name="g", color="GRAY", resize=(28, 28), scale=1 / 255)
    digit = np.arange(28 * 28, dtype=np.uint8).reshape(28, 28)
    x = apply(spec, digit)
    assert x.shape == (1, 1, 28, 28)
    np.testing.assert_allclose(x[0, 0], digit / np.float32(255), atol=1e-7)
    path = tmp_path / "astro.png"
    Image.fromarray(photos["astronaut"]).save(path)
    np.testing.assert_array_equal(apply(TV, path), apply(TV, photos["astronaut"]))


def test_bad_images_and_unbound_specs_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="dtype float64; give decoded uint8 pixels"):
        decode(np.zeros((4, 4, 3)))
    with pytest.raises(InputError, match="shape \\(4, 4, 4\\)"):
        decode(np.zeros((4, 4, 4), np.uint8))
    (tmp_path / "bad.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(InputError, match="bad.jpg: cannot decode"):
        decode(tmp_path / "bad.jpg")
    with pytest.raises(InputError, match="spec 'classification': takes its size from the model; bind it"):
        apply(PRESETS["classification"], np.zeros((8, 8, 3), np.uint8))
