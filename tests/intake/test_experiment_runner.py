"""The `intake` experiment runner on the non-zoo sources (the zoo cases retrain and run outside make test)."""
from __future__ import annotations

from pathlib import Path

import pytest

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.runners import intake as intake_runner
from npuready.experiments.task import run_inline


def run(ctx):
    return run_inline(intake_runner, ctx)


def _ctx(onnx_cases, zoo=()):
    return RunContext("intake", {"seed": 0, "zoo": list(zoo), "onnx": onnx_cases}, Path.cwd(), show_progress=False)


def test_user_onnx_sources_give_rows_and_ordered_actions():
    ctx = _ctx([{"source": "example:yolo_like", "target": "edge-10-nolut"},
                {"source": "onnx-light:light_squeezenet", "target": "edge-10-nolut"}])
    res = run(ctx)
    assert {k: v["evidence"] for k, v in res.items()} == {"summary": "analysis", "diagnoses": "analysis",
                                                         "prescriptions": "analysis",
                                                         "applied_accuracy": "measured", "applied_cost": "simulated"}
    rows = res["diagnoses"]["rows"]
    assert [r["model"] for r in rows] == ["example:yolo_like", "onnx-light:light_squeezenet"]
    assert rows[0]["error_rules"] == ["R002", "R005"] and rows[0]["zoo"] is False
    # squeezenet's Dropout (once a splitter to rewrite) is removed by the loader's importer
    assert rows[1]["actions"] == ["move-postprocess-out", "prune-aligned", "calibrate"]
    squeeze = [a for a in res["prescriptions"]["rows"] if a["model"] == "onnx-light:light_squeezenet"]
    assert [a["order"] for a in squeeze] == [1, 2, 3]
    assert res["applied_accuracy"]["rows"] == [] and res["applied_cost"]["rows"] == []
    assert any(k.endswith("light_squeezenet.onnx") for k in ctx.inputs)
    assert {k: res["summary"][k] for k in ("reports", "blocked_by_lint", "actions", "zoo_models_applied")} == {
        "reports": 2, "blocked_by_lint": 2, "actions": len(res["prescriptions"]["rows"]), "zoo_models_applied": 0}


def test_unknown_source_is_an_input_error():
    with pytest.raises(InputError, match="example 'nope' unknown"):
        run(_ctx([{"source": "example:nope", "target": "edge-10"}]))
