"""``sensitivity.measure``: every row is the direct measurement of its variant; shares and ranking are exact."""
from __future__ import annotations

import pytest

from npuready.quant.keep_float import keep_float, quantised_layers
from npuready.sensitivity.measure import Scorer, measure_sensitivity
from npuready.sensitivity.table import LayerRow, SensitivityTable, ranked
from npuready.sensitivity.variants import output_unrounded
from sens_tiny import LAYERS, tiny_inputs, tiny_model, tiny_qdq


@pytest.fixture(scope="module")
def measured():
    fm = tiny_model()
    q = tiny_qdq(fm)
    x = tiny_inputs(40, seed=7)
    return fm, q, x, measure_sensitivity(fm, q, x, task="classification", model_name="tiny")


def test_each_row_is_the_metric_of_that_layer_kept_float_alone(measured):
    fm, q, x, table = measured
    scorer = Scorer(fm, x, "classification")
    assert table.metric_int8 == scorer.score(q)
    assert sorted(r.name for r in table.rows) == sorted(LAYERS)
    for r in table.rows:
        assert r.metric_float == scorer.score(keep_float(q, fm, [r.name]))
        assert r.gain_float == r.metric_float - table.metric_int8
        layer = next(layer for layer in quantised_layers(q) if layer.name == r.name)
        assert r.metric_output == scorer.score(output_unrounded(q, layer))
        assert r.sqnr_db is not None and r.sqnr_db > 0
    assert table.task == "classification" and table.images == 40


def test_an_unrounded_output_is_a_clip_to_the_quantisers_range():
    fm = tiny_model()
    q = tiny_qdq(fm)
    layer = quantised_layers(q)[0]
    m = output_unrounded(q, layer)
    assert sum(n.op_type == "QuantizeLinear" for n in m.graph.node) == \
        sum(n.op_type == "QuantizeLinear" for n in q.graph.node) - 1
    clip = next(n for n in m.graph.node if n.op_type == "Clip" and n.input[0] == layer.output)
    assert clip.name.endswith("_unrounded")


def _row(name, gain, sqnr=20.0):
    return LayerRow(name, "Conv", 0.5 + gain, 0.5, gain, 0.0, sqnr)


def test_ranking_and_top_share_are_exact():
    rows = ranked([_row("a", 0.1), _row("b", 0.3), _row("c", 0.0, 10.0), _row("d", 0.0, 30.0)])
    assert [r.name for r in rows] == ["b", "a", "c", "d"]
    t = SensitivityTable("m", "classification", "top-1 agreement", 10, 0.5, rows)
    assert t.total_loss == 0.5
    assert t.top_share(1) == pytest.approx(0.6) and t.top_share(2) == pytest.approx(0.8)
    assert t.to_dict()["top_share"] == {"1": t.top_share(1), "3": t.top_share(3)}


def test_integer_score_in_chunks_is_the_whole_batch_score_and_drops_the_island_sessions(measured, monkeypatch):
    import npuready.sensitivity.measure as measure
    from npuready.engine.ops import float_island

    fm, q, x, _ = measured
    mixed = keep_float(q, fm, ["c2"])
    scorer = Scorer(fm, x, "classification")
    whole = scorer.score_integer(mixed)
    assert float_island._SESSIONS == {}  # a search builds hundreds of islands: none is kept after a score
    monkeypatch.setattr(measure, "CHUNK", 7)  # 40 images: 6 chunks, the last one short
    assert scorer.score_integer(mixed) == whole
    assert scorer.score_integer(q) == Scorer(fm, x, "classification").score_integer(q)
