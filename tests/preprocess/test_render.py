from npuready.preprocess.doctor import Diagnosis, Finding
from npuready.preprocess.presets import PRESETS
from npuready.preprocess.render import calibration_variant, diagnosis_text, spec_text, steps


def test_torchvision_steps_mark_fused_normalisation():
    assert steps(PRESETS["classification_torchvision"]) == [
        "decode to RGB", "resize shorter side to 256 (bilinear)", "centre crop 224x224",
        "uint8 (model input boundary)", "x * 0.00392157 [fused into the model]",
        "(x - mean (0.485, 0.456, 0.406)) / std (0.229, 0.224, 0.225) [fused into the model]", "layout NCHW"]
    assert calibration_variant(PRESETS["yolo_640"]).startswith("raw uint8 RGB after resize/crop/letterbox")
    assert "input: uint8 NCHW 1x3x640x640, values 0..255" in spec_text(PRESETS["yolo_640"])


def test_diagnosis_lines():
    d = Diagnosis("NCHW", "HWC", (Finding("layout", "a"), Finding("crop", "b")))
    assert diagnosis_text(d) == "MISMATCH layout: a\nMISMATCH crop: b\n"
    ok = Diagnosis("NCHW [1, 3, 8, 8] uint8", "NCHW [1, 3, 8, 8] float32", max_abs_diff=0.0, notes=("n",))
    assert diagnosis_text(ok) == ("MATCH: runtime NCHW [1, 3, 8, 8] uint8 agrees with calibration NCHW [1, 3, 8, 8] "
                                  "float32 (max abs diff 0)\nNOTE: n\n")
