"""docs/scaling.md: the large-sweep estimate is computed from the measurement JSON, never typed."""
from npuready.docs_gen.scaling import estimate


def _doc(per_task_s):
    units = {"a": {"mean_s": 0.02, "max_s": 0.5}, "b": {"mean_s": 0.03, "max_s": 1.5}}
    return {"units": units, "overhead": {"per_task_s": per_task_s}}


def test_estimate_splits_the_work_and_adds_the_serial_overhead():
    e = estimate(_doc(0.001), models=1000, targets=10, workers=64)
    assert e["tasks"] == 10000
    assert round(e["unit_s"], 9) == 0.05 and round(e["serial_s"], 6) == 500.0
    assert round(e["parallel_s"], 6) == round(500.0 / 64, 6)
    assert round(e["overhead_s"], 6) == 10.0 and round(e["total_s"], 6) == round(500.0 / 64 + 10.0, 6)


def test_estimate_is_never_below_the_longest_unit():
    e = estimate(_doc(0.0), models=1, targets=1, workers=64)
    assert e["parallel_s"] == 2.0 and e["total_s"] == 2.0


def test_reproduction_section_reads_every_number_from_the_measurement():
    from npuready.docs_gen.reproduction import section

    row = {"experiment": "a", "tasks": 4, "mode": "dask-local", "serial_wall_s": 10.0, "wall_s": 4.0,
           "serial_first": True, "serial": {"wall_s": 10.0, "identical": True, "first_difference": None},
           "serial_vs_workers_identical": True, "load_1min_before": 1.5, "load_1min_after": 2.0,
           "identical": True, "first_difference": None}
    other = {**row, "experiment": "b", "serial_wall_s": 4.0, "wall_s": 8.0, "serial_first": False,
             "serial": {"wall_s": 4.0, "identical": False, "first_difference": "/results/x/0"},
             "serial_vs_workers_identical": False, "identical": False, "first_difference": "/results/x/1"}
    code = {**row, "experiment": "c", "serial_wall_s": 100.0, "wall_s": 60.0,
            "serial": {"wall_s": 100.0, "identical": False,
                       "first_difference": "/provenance/code/files/generator~1npuready~1site~1render.py"},
            "identical": False, "first_difference": "/provenance/code/files/generator~1npuready~1site~1render.py"}
    doc = {"workers": 2, "commit": "0123456789", "machine": {"cpus": 2}, "cluster_start_s": 1.25,
           "total_wall_s": 15.5, "load_1_5_15_before": [1.5, 1.0, 0.5], "load_1_5_15_after": [2.0, 1.5, 1.0],
           "experiments": [row, other, code]}
    text = section(doc, ["a", "b", "c", "d"])
    assert ("| `a` | 4 | dask-local | 10.0 s | 4.0 s | 2.50x | serial | 1.5 -> 2.0 | identical | identical | "
            "identical |") in text
    assert ("| `b` | 4 | dask-local | 4.0 s | 8.0 s | 0.50x | workers | 1.5 -> 2.0 | differs at `/results/x/0` | "
            "differs at `/results/x/1` | differ |") in text
    assert ("older code fingerprint (`generator/npuready/site/render.py` changed since); values not compared on "
            "their own") in text
    imports = {**code, "experiment": "e", "identical": False, "first_difference": "/provenance/code",
               "first_value_difference": None}
    assert "| same values; older code fingerprint | identical |" in section({**doc, "experiments": [imports]}, ["e"])
    spec = {**imports, "first_value_difference": "/provenance/inputs/spec.toml"}
    assert "| differs at `/provenance/inputs/spec.toml` | identical |" in section({**doc, "experiments": [spec]}, ["e"])
    flat = " ".join(text.split())
    assert "1 of 3 identical to the committed result (1 with the same values" in flat
    assert "serial and 2 workers gave identical results in 2 of 3" in flat
    assert "serial took 1.9 min and 2 workers 1.2 min (1.58x): faster than serial here" in flat
    assert "(1) went from 1.7 min to 1.0 min (1.67x)" in flat
    assert "stopped after 3 of 4 experiments" in text and "not reached: `d`." in text
    assert "- `b`: not yet explained." in text and "- `c`: not yet explained." in text
    assert "commit `0123456`" in flat


def test_reproduction_section_names_each_run_of_a_merged_record():
    from npuready.docs_gen.reproduction import section
    from npuready.experiments.reproduction import merge

    def doc(commit, exp, serial, here):
        row = {"experiment": exp, "tasks": 2, "mode": "dask-local", "serial_wall_s": serial, "wall_s": here,
               "serial_first": True, "serial": {"wall_s": serial, "identical": True, "first_difference": None},
               "serial_vs_workers_identical": True, "load_1min_before": 1.0, "load_1min_after": 1.0,
               "identical": True, "first_difference": None}
        return {"workers": 2, "commit": commit, "machine": {"cpus": 2}, "cluster_start_s": 1.5,
                "total_wall_s": serial + here, "load_1_5_15_before": [1.0, 1.0, 1.0],
                "load_1_5_15_after": [3.0, 2.0, 1.0], "experiments": [row]}

    text = section(merge(doc("aaaaaaaaa", "a", 10.0, 5.0), doc("bbbbbbbbb", "b", 100.0, 50.0)), ["a", "b"])
    flat = " ".join(text.split())
    assert "in 2 runs (a later run replaced the rows of the experiments it ran)" in flat
    assert ("`a`: at commit `aaaaaaa`, cluster start 1.5 s, 15.0 s in all; load average (1/5/15 min) "
            "1.0 / 1.0 / 1.0 before and 3.0 / 2.0 / 1.0 at its last experiment; `b`: at commit `bbbbbbb`, "
            "cluster start 1.5 s, 2.5 min in all;") in flat
    assert "Every one of the 2 declared experiments ran." in flat
    assert "serial took 1.8 min and 2 workers 55.0 s (2.00x)" in flat
