import numpy as np
import pytest

from npuready.errors import InputError
from npuready.preprocess.doctor import KINDS, diagnose
from npuready.preprocess.injection import combinations, injections, jitter, matched_specs
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS
from npuready.preprocess.sources import TEST_PHOTOS

CASES = {case.name: case for case in injections(letterbox=(160, 320))}  # small sizes keep the test fast


@pytest.mark.parametrize("injection", list(CASES))
def test_every_injected_mismatch_is_named_exactly_on_every_photo(injection, photos):
    case = CASES[injection]
    for name in TEST_PHOTOS:
        calib, runtime = apply(case.calib, photos[name]), case.runtime(photos[name])
        if injection == "wrong_pad_value" and name == "astronaut":
            np.testing.assert_array_equal(runtime, calib)  # a square photo fills the box: no padding to differ
            continue
        d = diagnose(runtime, calib, case.calib)
        assert set(d.kinds) == case.expected, (name, [f.message for f in d.findings])
        assert not d.matched


@pytest.mark.parametrize("injection", [n for n in CASES if n != "wrong_letterbox_size"])
def test_blind_diagnosis_without_a_spec_names_the_same_kinds(injection, photos):
    case = CASES[injection]
    for name in ("chelsea", "flower"):
        d = diagnose(case.runtime(photos[name]), apply(case.calib, photos[name]))
        assert set(d.kinds) == case.expected


def test_blind_letterbox_size_needs_visible_padding(photos):
    case = CASES["wrong_letterbox_size"]
    wide = diagnose(case.runtime(photos["rocket"]), apply(case.calib, photos["rocket"]))
    assert wide.kinds == ("letterbox_size",)
    square = diagnose(case.runtime(photos["astronaut"]), apply(case.calib, photos["astronaut"]))
    assert square.kinds == ("resize",)  # a square photo fills the box: only the spec tells it is a letterbox


@pytest.mark.parametrize("spec", matched_specs(), ids=lambda s: s.name)
def test_no_alarm_on_matched_pairs(spec, photos):
    for k, name in enumerate(TEST_PHOTOS):
        x = apply(spec, photos[name])
        assert diagnose(x.copy(), x, spec).matched
        assert diagnose(jitter(x, k), x).matched


def test_channel_order_message_and_layout_kinds(photos):
    tv = PRESETS["classification_torchvision"].unfused()
    d = diagnose(apply(tv.replace(color="BGR"), photos["coffee"]), apply(tv, photos["coffee"]))
    assert d.findings[0].message.startswith("runtime channels are reversed relative to calibration (RGB vs BGR")
    assert d.findings[0].message.endswith("per-channel mean/std were applied in the other order too")
    hwc = diagnose(apply(tv.replace(layout="NHWC"), photos["coffee"]), apply(tv, photos["coffee"]))
    assert [f.message for f in hwc.findings] == [
        "runtime is NHWC [1, 224, 224, 3], calibration is NCHW [1, 3, 224, 224]"]


def test_missing_normalisation_reports_the_fitted_mean_and_std(photos):
    tv = PRESETS["classification_torchvision"].unfused()
    d = diagnose(apply(tv.replace(mean=None, std=None), photos["rocket"]), apply(tv, photos["rocket"]))
    assert "mean~(0.485, 0.456, 0.406) std~(0.229, 0.224, 0.225)" in d.findings[0].message


def test_fused_model_calibrated_with_raw_pixels_but_fed_normalised_floats(photos):
    tv = PRESETS["classification_torchvision"]
    d = diagnose(apply(tv.unfused(), photos["china"]), apply(tv, photos["china"]), tv)
    assert d.kinds == ("scale_255", "normalization")
    assert "runtime is normalised, calibration is not" in d.findings[1].message


def test_gray_against_colour_and_different_images(photos):
    tv = PRESETS["classification_torchvision"].unfused()
    gray = tv.replace(color="GRAY", mean=(0.45,), std=(0.225,))
    d = diagnose(apply(gray, photos["chelsea"]), apply(tv, photos["chelsea"]))
    assert d.kinds[0] == "channels"
    other = diagnose(apply(tv, photos["rocket"]), apply(tv, photos["coffee"]))
    assert other.kinds == ("unexplained",)


@pytest.mark.parametrize("array, message", [
    (np.zeros((2, 3, 8, 8), np.float32), "batch of 2; save one image"),
    (np.zeros((1, 1, 3, 8, 8), np.float32), "rank 5"),
    (np.full((8, 8, 3), np.nan, np.float32), "contains NaN or infinity"),
    (np.zeros((3, 9, 3), np.float32), "shape [3, 9, 3] is ambiguous"),
    (np.zeros((2, 2, 3), np.float32), "image 2x2 is too small"),
    (np.array(["a"] * 27).reshape(3, 3, 3), "expected a numeric image tensor"),
])
def test_unusable_tensors_are_input_errors(array, message):
    with pytest.raises(InputError) as info:
        diagnose(array, np.zeros((8, 8, 3), np.float32))
    assert message in str(info.value) and str(info.value).startswith("runtime tensor")


def test_every_kind_is_documented():
    assert set(KINDS) == {"layout", "channels", "letterbox_size", "letterbox_missing", "letterbox_pad", "crop",
                          "resize", "interpolation", "channel_order", "scale_255", "normalization", "unexplained"}


def test_pad_value_message_and_dtype_note(photos):
    y = PRESETS["yolo_640"]
    d = diagnose(apply(y.replace(pad_value=0), photos["coffee"]), apply(y, photos["coffee"]), y)
    assert [f.message for f in d.findings] == ["runtime pads the letterbox with 0, calibration with 114"]
    x = apply(y, photos["coffee"])
    same = diagnose(x.astype(np.float32), x)
    assert same.matched and same.notes[0].startswith("element types differ (float32 vs uint8) but the values agree")


@pytest.mark.parametrize("case", combinations(letterbox=(160, 320)), ids=lambda c: c.name)
def test_two_mismatches_at_once_are_both_named(case, photos):
    for name in ("chelsea", "flower"):
        d = diagnose(case.runtime(photos[name]), apply(case.calib, photos[name]), case.calib)
        assert set(d.kinds) == case.expected, (name, [f.message for f in d.findings])


def test_letterbox_size_names_the_presets_of_both_sizes(photos):
    y640, y1280 = PRESETS["yolo_640"], PRESETS["yolo_1280"]
    d = diagnose(apply(y640, photos["coffee"]), apply(y1280, photos["coffee"]), y1280)
    assert [f.message for f in d.findings] == [
        "runtime is letterboxed to 640x640 (yolo_640), calibration to 1280x1280 (yolo_1280): a preset of one size "
        "reused for the other"]
