import numpy as np
import pytest
from PIL import Image
from report_models import conv_model

from npuready.errors import InputError
from npuready.graph import load
from npuready.report.calibration import calibration_inputs


def _photos(folder, n=3):
    rng = np.random.default_rng(0)
    for i in range(n):
        Image.fromarray(rng.integers(0, 256, (20, 30, 3), dtype=np.uint8)).save(folder / f"p{i}.png")


def test_photos_go_through_the_preset_bound_to_the_model(tmp_path):
    _photos(tmp_path)
    x, labels, what = calibration_inputs(str(tmp_path), "classification", load(conv_model(batch=1)), 2)
    assert x.shape == (2, 3, 8, 8) and x.dtype == np.float32 and labels is None
    assert what == f"2 photos from {tmp_path} through preset classification"


def test_photos_without_a_preset_and_empty_folders_are_refused(tmp_path):
    with pytest.raises(InputError, match="no manifest.json and no .png/.jpg photos"):
        calibration_inputs(str(tmp_path), "classification", load(conv_model(batch=1)), 2)
    _photos(tmp_path, 1)
    with pytest.raises(InputError, match="needs --preset"):
        calibration_inputs(str(tmp_path), None, load(conv_model(batch=1)), 2)
