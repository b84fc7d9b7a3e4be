"""Honest axes: exact Vega-Lite scale/axis/legend properties of every chart kind."""
import json

import pytest

from npuready.site import charts
from npuready.site.numbers import Figures, MissingSource
from npuready.site.source import Experiment

DOC = {
    "results": {
        "lint": {"evidence": "analysis", "per_rule": {"R003": 3, "R005": 1}},
        "swap": {"evidence": "measured", "rows": [
            {"model": "vit", "target": "a", "before": 0.88, "after": None, "recovered": None},
            {"model": "vit", "target": "b", "before": 0.8808, "after": 0.8683, "recovered": 0.8678}]},
        "ptq": {"evidence": "measured", "rows": [
            {"method": "minmax", "model": "m1", "drop_pp": 0.1},
            {"method": "entropy", "model": "m1", "drop_pp": 34.7}]},
        "ladder": {"evidence": "measured", "rows": [
            {"op": "Conv", "propagated": 0.0, "local": None}, {"op": "Relu", "propagated": 0.25, "local": None}]},
        "vs": {"evidence": "reference", "layer_goal": 0.01, "models": [
            {"model": "r20", "target": "t1", "layers": [{"ratio": 1.0}, {"ratio": 1.0}]},
            {"model": "r20", "target": "t2", "layers": [{"ratio": 1.0}, {"ratio": 1.02}]}]},
    },
}


@pytest.fixture
def fig():
    return Figures({"x": Experiment(id="x", doc=DOC)})


def spec(view):
    return json.loads(view.spec_json)


def test_counts_get_whole_number_ticks_and_a_zero_baseline(fig):
    s = spec(charts.dict_bar_chart(fig, "x", "/results/lint/per_rule", "rule", "models", "models per rule", count=True))
    assert s["encoding"]["x"]["axis"] == {"format": "d", "tickMinStep": 1}
    assert s["encoding"]["x"]["scale"] == {"zero": True}
    assert s["encoding"]["y"]["axis"] == {"labelLimit": charts.LABEL_LIMIT}


def test_a_magnitude_that_is_not_a_count_keeps_default_ticks(fig):
    s = spec(charts.dict_bar_chart(fig, "x", "/results/lint/per_rule", "rule", "models", "t"))
    assert "axis" not in s["encoding"]["x"]
    assert s["encoding"]["x"]["scale"] == {"zero": True}


def test_stages_draw_only_rows_with_every_stage_on_a_stated_domain(fig):
    stages = [("before", "before"), ("after", "after swap"), ("recovered", "after recovery")]
    s = spec(charts.stages_chart(fig, "x", "/results/swap/rows", ["model", "target"], stages, "t", "top-1",
                                 domain=(0, 1)))
    rows = next(iter(s["datasets"].values()))
    assert {r["row"] for r in rows} == {"vit @ b"}  # the row with one point is no line: not in the legend
    assert len(rows) == 3
    assert s["encoding"]["y"]["scale"] == {"domain": [0, 1], "zero": True}
    assert s["encoding"]["y"]["title"] == "top-1 (axis 0–1)"
    assert s["encoding"]["color"]["legend"]["orient"] == "bottom"


def test_stages_without_a_domain_start_at_zero(fig):
    s = spec(charts.stages_chart(fig, "x", "/results/swap/rows", ["model"], [("before", "b"), ("after", "a")],
                                 "t", "v"))
    assert s["encoding"]["y"]["scale"] == {"zero": True}
    assert s["encoding"]["y"]["title"] == "v"


def test_stages_with_no_complete_row_fail_the_build(fig):
    with pytest.raises(MissingSource, match="has every stage"):
        charts.stages_chart(fig, "x", "/results/swap/rows", ["model"], [("after", "a"), ("missing", "m")], "t", "v")


def test_grouped_bars_start_at_zero_and_put_the_legend_below(fig):
    s = spec(charts.grouped_bar_chart(fig, "x", "/results/ptq/rows", "drop_pp", "method", "model", "t"))
    assert s["mark"] == {"type": "bar"}
    assert s["encoding"]["x"]["scale"] == {"zero": True}
    assert s["encoding"]["y"]["axis"] == {"labelLimit": 120}
    assert s["encoding"]["color"]["legend"] == {"orient": "bottom", "direction": "horizontal", "columns": 2,
                                                 "labelLimit": 220}


def test_grouped_log_is_points_not_bars(fig):
    s = spec(charts.grouped_bar_chart(fig, "x", "/results/ptq/rows", "drop_pp", "method", "model", "t", log=True))
    assert s["mark"]["type"] == "point"
    assert s["encoding"]["x"]["scale"] == {"type": "log"}


def test_series_legend_lists_only_fields_with_a_number(fig):
    s = spec(charts.series_chart(fig, "x", "/results/ladder/rows", "op", ["propagated", "local"], "t"))
    assert s["transform"][0]["fold"] == ["propagated"]
    assert s["encoding"]["y"]["scale"] == {"zero": True}
    assert s["encoding"]["x"]["axis"] == {"format": "d", "tickMinStep": 1}


def test_band_strip_spans_the_goal_band_widened_to_every_value(fig):
    s = spec(charts.band_strip_chart(fig, "x", "/results/vs/models", "layers", "ratio", ["model", "target"],
                                     centre=1.0, band=0.01, title="t", x_title="ours / ref"))
    ticks = s["layer"][1]
    assert ticks["mark"]["type"] == "tick"
    assert ticks["encoding"]["x"]["scale"] == {"domain": [0.99, 1.02], "nice": False, "zero": False}
    assert ticks["encoding"]["x"]["title"] == "ours / ref (axis 0.99–1.02: 1 ± 0.01)"
    assert s["layer"][0]["mark"]["type"] == "rule"
    rows = s["datasets"][ticks["data"]["name"]]
    assert [r["row"] for r in rows] == ["r20 @ t1", "r20 @ t1", "r20 @ t2", "r20 @ t2"]


def test_scatter_of_shares_starts_at_zero(fig):
    doc = {"results": {"p": {"evidence": "simulated", "a": {"m": 0.5, "c": 0.75}}}}
    f = Figures({"y": Experiment(id="y", doc=doc)})
    point = charts.Point(x="/results/p/a/m", y="/results/p/a/c", labels={"k": "a", "s": "b"}, extra={})
    s = spec(charts.scatter_chart(f, "y", "/results/p", [point], "k", "s", "t", "MACs", "cycles", percent=True))
    assert s["encoding"]["x"]["scale"] == {"zero": True}
    assert s["encoding"]["y"]["scale"] == {"zero": True}
    assert s["encoding"]["shape"]["legend"]["orient"] == "bottom"
