"""Generic tables: titled headers, stored keys kept, long name lists folded into a short cell."""
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import LIST_INLINE, mapping_table, nowrap, pivot_table, records_table


def _fig(results: dict) -> Figures:
    doc = {"id": "t", "title": "T", "summary": "s", "view": "npu", "results": results}
    return Figures({"t": Experiment(id="t", doc=doc)})


ROWS = [{"target": "edge-10", "model": "a", "cycles": 1200, "segments": [f"body_{i}" for i in range(9)]},
        {"target": "edge-10", "model": "b", "cycles": 3, "segments": ["body_0"]}]


def test_records_table_keeps_keys_and_titles_headers():
    fig = _fig({"x": {"evidence": "simulated", "rows": ROWS}})
    t = records_table(fig, "t", "/results/x/rows", ROWS)
    assert t.keys == ("model", "target", "cycles", "segments")
    assert [str(c).split('">')[1].split("<")[0] for c in t.columns] == ["Model", "Target", "Cycles", "Segments"]
    assert '<span class="unit">(cycles)</span>' in str(t.columns[2])


def test_a_long_list_of_names_shows_its_first_few_and_a_control_for_all():
    fig = _fig({"x": {"evidence": "simulated", "rows": ROWS}})
    t = records_table(fig, "t", "/results/x/rows", ROWS)
    assert str(t.rows[0][3]) == ("body_0, body_1, body_2, body_3 … <button class=\"raw\" data-n=\"1\">"
                                 "all 9</button>")
    assert fig.refs[1] == ("t", "/results/x/rows/0/segments")
    assert LIST_INLINE == 6 and str(t.rows[1][3]) == "body_0"


def test_nowrap_matches_stored_keys_not_titles():
    fig = _fig({"x": {"evidence": "simulated", "rows": ROWS}})
    t = nowrap(records_table(fig, "t", "/results/x/rows", ROWS), "target")
    assert [str(c).startswith('<span class="nowrap">') for c in t.rows[0]] == [False, True, False, False]


def test_pivot_and_mapping_tables_title_their_key_columns():
    fig = _fig({"x": {"evidence": "simulated", "rows": ROWS, "m": {"conv": {"latency_s": 0.5}}}})
    p = pivot_table(fig, "t", "/results/x/rows", ROWS, "model", "target", "cycles")
    assert p.keys == ("model", "") and p.columns[1] == "edge-10"
    assert ">Model</span> \\ <span" in str(p.columns[0])
    m = mapping_table(fig, "t", "/results/x/m", {"conv": {"latency_s": 0.5}}, "op kind")
    assert m.keys == ("", "latency_s") and m.columns[0] == "op kind" and "(s)" in str(m.columns[1])
