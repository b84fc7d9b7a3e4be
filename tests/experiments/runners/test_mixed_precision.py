"""experiments.runners.mixed_precision.search_record: which bound stopped the search and why the held-out figure
differs from the test one, from the search's own record (no pipeline run)."""
from __future__ import annotations

import math

import pytest

from npuready.experiments.runners.mixed_precision import search_record
from npuready.quant.keep_float_search import KeepChoice, KeptLayer


def _choice(metric: float, stopped: str, min_metric: float = 0.97) -> KeepChoice:
    kept = (KeptLayer("c1", "Conv", "auto", 0.01, 10, 8),)
    return KeepChoice("edge-10", "integer", 0.875, metric, min_metric, kept, (), 10, 8, stopped)


def test_a_gap_beyond_the_noise_is_named_selection_bias_and_the_stopping_bound_is_named():
    r = search_record(_choice(0.98, "reached"), 200, 1000, 0.939, 53, 0.97)
    assert r["stopped_by"] == "reached" and r["reached_on_holdout"] and not r["test_meets_goal"]
    assert r["gap"] == pytest.approx(0.041)
    assert r["metric_holdout_se"] == pytest.approx(math.sqrt(0.98 * 0.02 / 200))
    assert r["noise"] == pytest.approx(math.hypot(r["metric_holdout_se"], math.sqrt(0.939 * 0.061 / 1000)))
    assert "selection-biased" in r["why"] and "min-metric 0.97 on the held-out images" in r["why"]
    assert "1 of 53 layers float" in r["why"]


def test_a_gap_within_the_noise_is_not_called_bias_and_a_met_goal_names_no_bound():
    r = search_record(_choice(0.975, "reached"), 1000, 1000, 0.972, 53, 0.97)
    assert r["test_meets_goal"] and "within twice the sampling noise" in r["why"]
    assert "selection-biased" not in r["why"] and "bound that stopped" not in r["why"]


def test_a_search_stopped_short_names_its_bound():
    r = search_record(_choice(0.95, "max-layers"), 500, 1000, 0.94, 53, 0.97)
    assert not r["reached_on_holdout"] and r["why"].startswith("the search stopped by max-layers at 0.95")
