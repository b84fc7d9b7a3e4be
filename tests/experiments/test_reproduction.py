import pytest

from npuready.experiments.reproduction import merge, runs


def _doc(commit, rows, total):
    return {"evidence": "measured", "workers": 2, "machine": {"cpus": 2}, "commit": commit, "cluster_start_s": 1.0,
            "total_wall_s": total, "load_1_5_15_before": [1.0, 1.0, 1.0], "load_1_5_15_after": [2.0, 2.0, 2.0],
            "complete": False, "experiments": [{"experiment": e, "wall_s": w} for e, w in rows]}


def test_a_single_run_is_its_own_only_run():
    doc = _doc("aaa", [("a", 1.0), ("b", 2.0)], 3.0)
    assert runs(doc) == [{"commit": "aaa", "cluster_start_s": 1.0, "total_wall_s": 3.0,
                          "load_1_5_15_before": [1.0, 1.0, 1.0], "load_1_5_15_after": [2.0, 2.0, 2.0],
                          "experiments": ["a", "b"]}]


def test_a_later_run_replaces_the_rows_it_ran_and_keeps_both_headers():
    base = _doc("aaa", [("a", 1.0), ("b", 2.0), ("c", 3.0)], 6.0)
    later = _doc("bbb", [("d", 9.0), ("b", 5.0)], 14.0)
    doc = merge(base, later)
    assert [(r["experiment"], r["wall_s"]) for r in doc["experiments"]] == [("a", 1.0), ("b", 5.0), ("c", 3.0),
                                                                           ("d", 9.0)]
    assert [(h["commit"], h["total_wall_s"], h["experiments"]) for h in doc["runs"]] == [
        ("aaa", 6.0, ["a", "c"]), ("bbb", 14.0, ["d", "b"])]
    assert "commit" not in doc and "complete" not in doc and doc["machine"] == {"cpus": 2}
    # merging again into the merged record keeps the first run's header for what it still holds
    again = merge(doc, _doc("ccc", [("a", 0.5)], 0.5))
    assert [(h["commit"], h["experiments"]) for h in again["runs"]] == [("aaa", ["c"]), ("bbb", ["d", "b"]),
                                                                        ("ccc", ["a"])]


def test_a_run_that_replaced_everything_leaves_no_empty_header():
    doc = merge(_doc("aaa", [("a", 1.0)], 1.0), _doc("bbb", [("a", 2.0)], 2.0))
    assert [h["commit"] for h in doc["runs"]] == ["bbb"]


def test_runs_on_different_cluster_sizes_do_not_merge():
    with pytest.raises(ValueError, match="2 and 4 workers"):
        merge(_doc("aaa", [("a", 1.0)], 1.0), {**_doc("bbb", [("a", 2.0)], 2.0), "workers": 4})


def test_only_the_named_rows_of_a_later_run_are_taken():
    base = _doc("aaa", [("a", 1.0), ("b", 2.0)], 3.0)
    later = _doc("bbb", [("a", 7.0), ("b", 8.0)], 15.0)
    doc = merge(base, later, ["b"])
    assert [(r["experiment"], r["wall_s"]) for r in doc["experiments"]] == [("a", 1.0), ("b", 8.0)]
    assert [(h["commit"], h["total_wall_s"], h["experiments"]) for h in doc["runs"]] == [
        ("aaa", 3.0, ["a"]), ("bbb", 15.0, ["b"])]
    with pytest.raises(ValueError, match="no row for c"):
        merge(base, later, ["c"])
