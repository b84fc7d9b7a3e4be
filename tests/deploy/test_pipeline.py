"""The deploy pipeline end to end on small in-code models: registered, blocked by lint, blocked by the gate."""
from __future__ import annotations

import json

import pytest

from deploy_models import calib_folder, classifier, save
from npuready.deploy.pipeline import Settings, deploy
from npuready.experiments.context import sha256_file

STAGES = ["lint", "partition", "cost", "calibrate", "quantize", "engine", "parity", "artifact", "register"]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    root = tmp_path_factory.mktemp("deploy")
    models = {"good": classifier("good"), "tied": classifier("tied", tied=True),
              "softsign": classifier("softsign", activation="Softsign")}
    for name, m in models.items():
        save(m, root / f"{name}.onnx")
        calib_folder(root / f"calib_{name}", m, n=30)
    return root


def _run(work, name, registry="reg", **kw):
    settings = Settings(target="edge-10", calib_dir=str(work / f"calib_{name}"), registry=str(work / registry),
                        calib_images=12, parity_images=18, **kw)
    return deploy(work / f"{name}.onnx", settings, command=f"npuready deploy {name}.onnx")


def test_passing_model_is_registered_with_hashes_and_evidence(work):
    result = _run(work, "good", registry="reg_good")
    assert result.exit_code == 0 and result.registered and result.reason == ""
    assert [s.stage for s in result.stages] == STAGES
    index = json.loads((work / "reg_good" / "index.json").read_text())
    assert index["version"] == 1 and index["rejections"] == []
    [entry] = index["models"]
    assert (entry["name"], entry["target"]) == ("good", "edge-10")
    assert entry["model_sha256"] == sha256_file(work / "good.onnx")
    assert sorted(entry["files"]) == ["float", "int8", "integer", "qdq"]
    assert entry["files"]["int8"]["path"] == f"good/edge-10/{entry['version']}/int8.tflite"
    art = entry["evidence"]["artifact"]
    assert art["status"] == "passed" and art["evidence"]["tensors_mismatched"] == 0
    assert art["evidence"]["tensors_compared"] > 0 and art["evidence"]["written"] is True
    for role, f in entry["files"].items():
        assert sha256_file(work / "reg_good" / f["path"]) == f["sha256"]
    assert entry["files"]["float"]["sha256"] == entry["model_sha256"]
    assert entry["files"]["qdq"]["path"] == f"good/edge-10/{entry['version']}/qdq.onnx"
    assert sorted(entry["evidence"]) == sorted(STAGES[:-1])
    ev = entry["evidence"]
    assert ev["lint"]["evidence"]["summary"] == {"errors": 0, "warnings": 3, "infos": 0}
    assert ev["partition"]["evidence"]["verdict"] == "one-body"
    assert ev["cost"]["evidence"]["evidence"] == "simulated"
    assert ev["calibrate"]["evidence"]["calibration_images"] == 12
    assert ev["calibrate"]["evidence"]["parity_images"] == 18
    assert ev["calibrate"]["evidence"]["parity_overlaps_calibration"] is False
    assert ev["parity"]["evidence"]["agreement"]["integer_vs_float"] == 1.0
    assert ev["parity"]["evidence"]["accuracy"] == {"float": 1.0, "fake_quant": 1.0, "integer": 1.0}
    assert entry["command"] == "npuready deploy good.onnx"


def test_lint_error_blocks_and_is_stored_as_rejection(work):
    result = _run(work, "softsign", registry="reg_lint")
    assert result.exit_code == 1 and not result.registered
    assert result.blocked_stage == "lint"
    assert [s.stage for s in result.stages] == ["lint"]
    assert result.reason.startswith("1 lint ERROR(s): R005 act1 (Softsign)")
    index = json.loads((work / "reg_lint" / "index.json").read_text())
    assert index["models"] == []
    [rej] = index["rejections"]
    assert (rej["name"], rej["target"], rej["stage"]) == ("softsign", "edge-10", "lint")
    assert rej["reason"] == result.reason
    assert rej["model_sha256"] == sha256_file(work / "softsign.onnx")
    assert [f["rule"] for f in rej["evidence"]["lint"]["evidence"]["findings"] if f["severity"] == "ERROR"] == ["R005"]
    assert not (work / "reg_lint" / "softsign").exists()


def test_parity_gate_failure_blocks(work):
    result = _run(work, "tied", registry="reg_gate")
    assert result.exit_code == 1 and result.blocked_stage == "parity"
    assert [s.stage for s in result.stages] == STAGES[:-2]
    parity = result.stages[-1].evidence
    agree = parity["agreement"]["integer_vs_float"]
    drop = parity["accuracy"]["float"] - parity["accuracy"]["integer"]
    assert agree <= 0.5 and parity["accuracy"]["float"] == 1.0  # float picks class 9, most int8 codes tie
    # both rungs fail: the fake-quant one (the QDQ file) and the integer one tie the same way
    assert parity["agreement"]["fake_quant_vs_float"] == agree == parity["accuracy"]["fake_quant"]
    assert result.reason == (f"parity gate failed: top-1 agreement fake-quant vs float {agree:.4f} < limit 0.9900; "
                             f"accuracy drop float → fake-quant {drop:.4f} > limit 0.0100; "
                             f"top-1 agreement integer vs float {agree:.4f} < limit 0.9900; "
                             f"accuracy drop float → integer {drop:.4f} > limit 0.0100")
    index = json.loads((work / "reg_gate" / "index.json").read_text())
    assert index["models"] == [] and [r["stage"] for r in index["rejections"]] == ["parity"]
    assert index["rejections"][0]["reason"] == result.reason


def test_same_registry_keeps_accepted_and_rejected_apart(work):
    _run(work, "good", registry="reg_both")
    _run(work, "tied", registry="reg_both")
    index = json.loads((work / "reg_both" / "index.json").read_text())
    assert [m["name"] for m in index["models"]] == ["good"]
    assert [r["name"] for r in index["rejections"]] == ["tied"]


def test_engine_without_kernel_blocks(work, tmp_path):
    # Softsign passes lint on no target, so use an op the linter allows but the integer engine lacks: Neg.
    from onnx import helper

    m = classifier("subnet")
    m.graph.node.insert(1, helper.make_node("Neg", ["a"], ["a_s"], name="shift"))
    m.graph.node[2].input[0] = "a_s"
    save(m, work / "subnet.onnx")
    calib_folder(work / "calib_subnet", m, n=20)
    result = _run(work, "subnet", registry="reg_engine")
    assert result.exit_code == 1 and result.blocked_stage == "engine"
    assert "op Neg has no integer kernel" in result.reason
