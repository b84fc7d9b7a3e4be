"""The cost-per-target runner returns one simulated row per model x target, consistent with estimate()."""
from pathlib import Path

from npuready.cost import estimate
from npuready.cost.examples import pool_net
from npuready.experiments.context import RunContext
from npuready.experiments.runners import cost_per_target
from npuready.experiments.task import run_inline


def test_rows_match_estimate(tmp_path):
    ctx = RunContext("cost-per-target", {"examples": ["pool_net"], "targets": ["tiny-1", "ethos-u55-128"],
                                         "use_zoo": False}, Path(tmp_path), show_progress=False)
    res = run_inline(cost_per_target, ctx)
    assert res["costs"]["evidence"] == "simulated"
    rows = res["costs"]["rows"]
    assert [(r["model"], r["target"]) for r in rows] == [("pool_net", "tiny-1"), ("pool_net", "ethos-u55-128")]
    for r in rows:
        total = estimate(pool_net(), r["target"]).total()
        assert (r["cycles"], r["latency_s"], r["energy_uj"]) == (total["cycles"], total["latency_s"],
                                                                 total["energy_uj"])
