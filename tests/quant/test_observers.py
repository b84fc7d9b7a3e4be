"""Observers choose activation ranges from calibration statistics."""
import numpy as np
import pytest

from npuready.quant.observers import OBSERVERS, entropy, minmax, mse, percentile
from npuready.quant.observers.histogram import Histogram


def _hist(x):
    h = Histogram(float(x.min()), float(x.max()))
    h.update(x)
    return h


@pytest.fixture(scope="module")
def heavy_tail():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(200_000), [60.0, -55.0]])
    return x, _hist(x)


def test_registry_names():
    assert sorted(OBSERVERS) == ["entropy", "minmax", "mse", "percentile"]


def test_minmax_is_the_data_range(heavy_tail):
    x, h = heavy_tail
    assert minmax.observe(x.min(), x.max(), h) == (-55.0, 60.0)


@pytest.mark.parametrize("obs", [percentile, mse, entropy], ids=["percentile", "mse", "entropy"])
def test_clipping_observers_cut_outliers_and_keep_zero(heavy_tail, obs):
    x, h = heavy_tail
    lo, hi = obs.observe(float(x.min()), float(x.max()), h)
    assert -55.0 < lo <= 0.0 <= hi < 60.0
    assert hi > 2.0 and lo < -2.0  # the bulk of a unit normal stays inside


def test_percentile_matches_numpy_percentile_within_a_bin(heavy_tail):
    x, h = heavy_tail
    lo, hi = percentile.observe(float(x.min()), float(x.max()), h)
    width = (x.max() - x.min()) / h.bins
    assert abs(hi - np.percentile(x, 99.99)) <= 2 * width
    assert abs(lo - np.percentile(x, 0.01)) <= 2 * width


def test_mse_error_of_chosen_range_is_not_worse_than_minmax(heavy_tail):
    x, h = heavy_tail
    lo, hi = mse.observe(float(x.min()), float(x.max()), h)
    assert mse.quant_error(h.centers, h.counts, lo, hi) <= mse.quant_error(h.centers, h.counts, x.min(), x.max())


def test_non_negative_tensor_keeps_zero_lower_bound():
    x = np.abs(np.random.default_rng(1).standard_normal(50_000))
    h = _hist(x)
    for obs in (percentile, mse, entropy):
        lo, hi = obs.observe(float(x.min()), float(x.max()), h)
        assert lo <= float(x.min()) and hi > 0


@pytest.mark.parametrize("name", ["percentile", "mse", "entropy"])
def test_histogram_observers_take_a_narrow_float32_range_far_from_zero(name):
    # nudenet's head holds a tensor whose float32 values span one ulp at 320: np.histogram refused it
    # ("Too many bins for data range") when the bin edges were computed in float32.
    x = np.array([320.0, np.nextafter(np.float32(320.0), np.float32(400.0))], np.float32)
    h = Histogram(float(x.min()), float(x.max()))
    h.update(x)
    assert h.counts.sum() == 2
    lo, hi = OBSERVERS[name].observe(float(x.min()), float(x.max()), h)
    assert np.isfinite([lo, hi]).all() and lo <= 320.0 and 96.0 <= hi <= 320.001
