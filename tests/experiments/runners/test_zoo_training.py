import json

import pytest

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.runners import zoo_training
from npuready.experiments.task import run_inline
from npuready.paths import repo_root, zoo_dir


def test_runner_recomputes_subset_accuracy_and_copies_training_cost():
    manifest = json.loads((zoo_dir() / "zoo.json").read_text())["models"]
    ctx = RunContext("zoo-training", {"classifiers": ["tinycnn"], "test_set": "subset"}, repo_root(),
                     show_progress=False)
    results = run_inline(zoo_training, ctx)
    assert {s["evidence"] for s in results.values()} == {"measured"}
    (row,) = results["classifiers"]["rows"]
    assert row["model"] == "tinycnn" and row["images"] == 1000
    assert abs(row["onnx_accuracy"] - manifest["tinycnn"]["onnx_subset_accuracy"]) <= 0.002
    (cost,) = results["training"]["rows"]
    assert cost["train_seconds"] == manifest["tinycnn"]["train_seconds"]
    assert results["detector"]["rows"] == []
    assert "zoo/tinycnn.onnx" in ctx.inputs and "zoo/zoo.json" in ctx.inputs


def test_unknown_test_set():
    ctx = RunContext("zoo-training", {"test_set": "valid"}, repo_root(), show_progress=False)
    with pytest.raises(InputError, match="test_set 'valid'"):
        run_inline(zoo_training, ctx)
