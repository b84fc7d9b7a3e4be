from npuready.experiments.context import RunContext
from npuready.experiments.runners import preprocess_doctor
from npuready.experiments.task import run_inline
from npuready.paths import repo_root


def test_runner_counts_detections_and_false_alarms_on_a_small_run():
    ctx = RunContext("preprocess-doctor", {"photos": ["chelsea"], "letterbox_sizes": [160, 320], "seed": 0},
                     repo_root(), show_progress=False)
    results = run_inline(preprocess_doctor, ctx)
    assert all(section["evidence"] == "measured" for section in results.values())
    per = results["injections"]["per_injection"]
    assert len(per) == 10 and all(s["injected"] == 1 and s["detected_with_spec"] == 1 for s in per.values())
    assert results["injections"]["total"]["injected"] == 10
    combined = results["combined"]["total"]
    assert combined == {"injected": 6, "detected_with_spec": 6, "exact_with_spec": 6}
    matched = results["matched_pairs"]
    assert (matched["pairs"], matched["false_alarms_with_spec"], matched["false_alarms_blind"]) == (10, 0, 0)
    assert ctx.seeds == {"jitter": 0}
