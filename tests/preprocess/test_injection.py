import numpy as np

from npuready.preprocess.injection import injections, jitter, matched_specs
from npuready.preprocess.pipeline import apply


def test_catalogue_covers_every_seed_mismatch():
    assert [c.name for c in injections()] == ["rgb_vs_bgr", "missing_255", "missing_normalization",
                                              "fused_setting_inactive", "hwc_vs_nchw", "nchw_reshaped_as_hwc",
                                              "crop_vs_no_crop", "wrong_interpolation", "wrong_pad_value",
                                              "wrong_letterbox_size"]
    lb = injections()[-1]
    assert lb.calib.name == "yolo_1280" and "yolo_640" in lb.why


def test_each_injection_changes_the_tensor(photos):
    img = photos["chelsea"]
    for case in injections(letterbox=(160, 320)):
        calib, runtime = apply(case.calib, img), case.runtime(img)
        assert calib.shape != runtime.shape or not np.array_equal(calib, runtime), case.name


def test_jitter_is_one_lsb(photos):
    x = apply(matched_specs()[2], photos["coffee"])  # uint8
    d = jitter(x, 0).astype(int) - x.astype(int)
    assert d.min() == -1 and d.max() == 1 and jitter(x, 0).dtype == np.uint8
