import json
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[2] / "models" / "library"))
from corpus_extra import needs_corpus  # noqa: E402

from npuready.experiments.context import RunContext  # noqa: E402
from npuready.paths import repo_root  # noqa: E402

PARAMS = {"image_size": 64, "images": 6, "calibration_images": 4, "seed": 0}


def _ctx(models):
    return RunContext("bitexact-realworld", {**PARAMS, "models": models}, repo_root(), show_progress=False)


def test_one_task_per_model_entry_and_a_missing_zoo_checkpoint_is_pending():
    from npuready.experiments.runners import bitexact_realworld as r

    ctx = _ctx([{"name": "resnet18", "preset": "classification"}, {"name": "not_trained_fm64", "source": "zoo"}])
    assert [t.key for t in r.tasks(ctx)] == ["resnet18", "not_trained_fm64"]
    out = r.run_task(ctx, {"name": "not_trained_fm64", "source": "zoo"})
    assert out == {"status": "pending", "weights": "trained",
                   "reason": "zoo/not_trained_fm64.onnx is not in the repository yet (trained by 'npuready train')"}


def test_a_trained_zoo_model_runs_on_fashion_mnist_with_zero_mismatches():
    pytest.importorskip("ai_edge_litert")
    from npuready.experiments.runners import bitexact_realworld as r

    ctx = _ctx([{"name": "tinycnn", "source": "zoo"}])
    out = r.run_task(ctx, {"name": "tinycnn", "source": "zoo"})
    assert out["status"] == "ran" and out["weights"] == "trained" and out["images"] == 6
    assert out["tensors_compared"] == 6 * (out["integer_ops"] - out["op_kinds"].get("Constant", 0))
    assert out["tensors_mismatched"] == 0 and out["cpp_vs_numpy"]["tensors_mismatched"] == 0
    assert out["margins"]["images"] == 6 and set(out["accuracy"]) == {"float", "integer"}
    merged = r.merge(ctx, {"tinycnn": out, "x_fm64": {"status": "pending"}})
    assert merged["totals"]["models_ran"] == 1 and merged["totals"]["models_pending"] == ["x_fm64"]
    assert merged["summary"]["rows"][0]["tensors_compared"] == out["tensors_compared"]


@needs_corpus
def test_yolov8n_body_is_cut_from_the_quantised_model_and_bitexact(tmp_path, monkeypatch):
    pytest.importorskip("ai_edge_litert")
    from npuready.experiments.runners import bitexact_realworld as r

    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    entry = {"name": "yolov8n", "preset": "detection", "body_target": "ethos-u55-128"}
    prep = r.prepare(entry, {**PARAMS, "images": 2})
    assert [o.name for o in prep["float"].graph.output] == ["/model.22/Add_2_output_0", "/model.22/Sub_1_output_0",
                                                            "/model.22/Sigmoid_output_0"]
    assert len(prep["graph"].outputs) == 3 and prep["x"].shape == (2, 3, 64, 64)


def _committed():
    path = repo_root() / "experiments" / "bitexact-realworld" / "result.json"
    if not path.exists():
        pytest.skip("bitexact-realworld has no committed result")
    return json.loads(path.read_text())


def test_committed_result_covers_the_spec_and_is_bitexact():
    doc = _committed()
    models = [m["name"] for m in doc["spec"]["params"]["models"]]
    res = doc["results"]
    assert sorted(res["per_model"]["models"]) == sorted(models)
    ran = [k for k, v in res["per_model"]["models"].items() if v["status"] == "ran"]
    assert len(ran) >= 8 and res["totals"]["models_ran"] == len(ran)
    for k in ran:
        v = res["per_model"]["models"][k]
        assert v["images"] == doc["spec"]["params"]["images"]
        assert v["tensors_mismatched"] == 0 and v["elements_mismatched_propagated"] == 0, k
        assert v["cpp_vs_numpy"]["tensors_mismatched"] == 0 and v["cpp_vs_numpy"]["tensors_compared"] > 0, k
    assert res["totals"]["tensors_compared"] == sum(res["per_model"]["models"][k]["tensors_compared"] for k in ran)
    assert res["per_model"]["models"]["deit_tiny"]["layernorms_decomposed"] > 0
    assert res["per_model"]["models"]["deit_tiny"]["op_kinds"]["MatMul"] > 0
