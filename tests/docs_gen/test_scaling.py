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
