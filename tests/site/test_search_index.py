"""The search index: every stored scalar of every result, compact, and decodable back to the same entries."""
import json
from pathlib import Path

from npuready.site.render import render_site
from npuready.site.search_index import INDEX_FILE, build_index, decode, entries, search_script, value_text
from npuready.site.source import Experiment, load_experiments

REPO = Path(__file__).resolve().parents[2]


def _exp(exp_id: str, results: dict) -> Experiment:
    return Experiment(id=exp_id, doc={"id": exp_id, "title": "T " + exp_id, "summary": "s", "view": "npu",
                                      "results": results})


def test_numbers_are_searchable_as_stored_and_as_shown():
    assert value_text(0.28536) == "0.28536 0.2854"
    assert value_text(0.2853) == "0.2853"
    assert value_text(1884) == "1884"  # shown as 1,884: the search reads "1,884" as 1884
    assert value_text(12345.6) == "12345.6 12,346"
    assert value_text(True) == "true" and value_text(None) == "null" and value_text("a<b") == "a<b"


def test_the_compact_form_groups_pointers_by_shape_and_stores_each_text_once():
    exp = _exp("x", {"s": {"evidence": "simulated", "rows": [{"op": "Conv", "cycles": 7}, {"op": "Conv", "cycles": 9}],
                           "grid": [[1, 2], [3]]}})
    index = build_index({"x": exp})
    assert index["v"] == 1
    assert index["texts"] == ["Conv", "x", "T x", "s", "npu", "simulated", "7", "9", "1", "2", "3"]
    rec = index["records"][0]
    assert (rec["id"], rec["title"], rec["view"], rec["evidence"]) == ("x", "T x", "npu", ["simulated"])
    assert rec["paths"] == ["/id", "/title", "/summary", "/view", "/results/s/evidence", "/results/s/rows/*/op",
                            "/results/s/rows/*/cycles", "/results/s/grid/*/*"]
    # a cell is a bare text index while its list positions run on from the previous one, else [i, j, text]
    assert rec["cols"] == [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0, 0], [6, 6, 7], [7, 8, 9, [1, 0, 10]]]


def test_decode_gives_back_every_entry_of_the_repository_results_in_order():
    exps = load_experiments(REPO / "experiments")
    want = [e for exp_id, exp in sorted(exps.items()) for e in entries(exp_id, exp.doc)]
    got = list(decode(build_index(exps)))
    assert len(got) == len(want) > 50_000
    key = lambda e: (e.exp_id, e.pointer)  # noqa: E731 - grouping by shape reorders within a record only
    assert sorted(got, key=key) == sorted(want, key=key)


def test_awkward_keys_round_trip_to_their_pointers():
    exp = _exp("k", {"s": {"evidence": "analysis", "a/b": {"~x": 1, "*": 2, "~2": 3}}})
    pointers = {e.pointer: e.text for e in decode(build_index({"k": exp}))}
    assert pointers["/results/s/a~1b/~0x"] == "1"
    assert pointers["/results/s/a~1b/*"] == "2"
    assert pointers["/results/s/a~1b/~02"] == "3"


def test_the_script_registers_the_index_and_cannot_close_its_script_tag():
    exp = _exp("x", {"s": {"evidence": "measured", "msg": "</script><img src=x onerror=alert(1)>"}})
    script = search_script({"x": exp})
    assert script.startswith("npuready.registerSearch({") and script.endswith("});\n")
    assert "<" not in script
    assert json.loads(script[len("npuready.registerSearch("):-3]) == build_index({"x": exp})


def test_the_site_writes_the_index_and_loads_the_table_and_search_assets():
    exps = load_experiments(REPO / "tests" / "site" / "fixtures" / "known")
    build = render_site(exps, {})
    assert build.files[INDEX_FILE].decode() == search_script(exps)
    html = build.files["index.html"].decode()
    for asset in ("assets/tables.css", "assets/tables.js", "assets/search.js"):
        assert f'"{asset}?v=' in html and asset in build.files
