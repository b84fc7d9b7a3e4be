"""--apply on a zoo classifier (torch extra): swap + short recovery, per-channel PTQ, before/after numbers.

Uses a freshly initialised (untrained) zoo architecture written to a temporary zoo folder, two recovery
steps and 20 evaluation images: the test checks the mechanics and the bookkeeping, not the accuracy.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def fake_zoo(tmp_path_factory):
    from npuready.models.onnx_export import export_onnx, save_checkpoint
    from npuready.models.zoo import spec

    folder = tmp_path_factory.mktemp("zoo")
    for name in ("vit_tiny", "tinycnn"):
        torch.manual_seed(0)
        s = spec(name)
        model = s.build().eval()
        save_checkpoint(model, folder / f"{name}.pt")
        export_onnx(model, s, folder / f"{name}.onnx")
    return folder


def test_apply_without_swap_measures_before_and_after(fake_zoo):
    from npuready.intake import intake

    report = intake("tinycnn", "edge-10", apply=True, eval_images=10, zoo_folder=fake_zoo)
    out = report.outcome
    assert "swap-activation" not in [a.id for a in report.actions]
    assert [s.name for s in out.stages] == ["before", "after"] and out.swaps == () and out.recovery == {}
    assert out.applied[-1] == "calibrate"
    before, after = out.stages
    assert before.lint_errors == after.lint_errors == 0 and before.cycles == after.cycles
    assert before.float_accuracy == after.float_accuracy  # same float model, same 10 images
    assert before.integer_accuracy is not None and after.integer_note.endswith("integer engine, rounding tflite-ref")


@pytest.mark.slow
def test_apply_swaps_gelu_recovers_and_measures_each_stage(fake_zoo):
    from npuready.intake import intake
    from npuready.intake.render import render_text

    report = intake("vit_tiny", "edge-10-nolut", apply=True, recovery_steps=2, eval_images=20, zoo_folder=fake_zoo)
    ids = [a.id for a in report.actions]
    assert "swap-activation" in ids and ids[-1] == "calibrate"
    out = report.outcome
    assert [s.name for s in out.stages] == ["before", "after-swap", "after-recovery", "after"]
    assert out.applied == ("swap-activation", "calibrate")
    assert out.swaps and {s["old"] for s in out.swaps} == {"GELU"} and {s["new"] for s in out.swaps} == {"ReLU6"}
    before, after = out.stage("before"), out.stage("after")
    assert after.lint_errors < before.lint_errors
    assert after.cycles < before.cycles
    assert out.eval_images == 20 and out.recovery["steps"] == 2
    for s in out.stages:
        assert 0.0 <= s.float_accuracy <= 1.0
    assert before.fake_quant_accuracy is not None and before.settings["weights"] == "per-tensor"
    assert after.settings["calibration"] == "100 stratified training images"
    text = render_text(report)
    assert "APPLIED: swap-activation, calibrate" in text and "after-recovery" in text
