import json

import numpy as np
import onnx
import pytest

from npuready.cli import main
from npuready.preprocess.example_models import conv_classifier
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS


@pytest.fixture(scope="module")
def chelsea():
    from npuready.data import photo

    return photo("chelsea")


def _model(tmp_path, size):
    path = tmp_path / f"m{size}.onnx"
    onnx.save(conv_classifier(size=size), str(path))
    return str(path)


def test_show_lists_every_preset(capsys):
    assert main(["preprocess", "show"]) == 0
    out = capsys.readouterr().out
    assert all(out.count(f"{name}: ") >= 1 for name in PRESETS)


def test_show_json_and_size_refusal(tmp_path, capsys):
    assert main(["preprocess", "show", "yolo_1280", "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["letterbox"] == [1280, 1280] and data["pad_value"] == 114 and data["value_range"] == "0..255"
    assert main(["preprocess", "show", "yolo_640", "--model", _model(tmp_path, 1280)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "makes 640x640 images" in err[0] and "is 1280x1280" in err[0]


def test_diagnose_exit_codes(tmp_path, chelsea, capsys):
    tv = PRESETS["classification_torchvision"]
    np.save(tmp_path / "calib.npy", apply(tv, chelsea))
    np.save(tmp_path / "same.npy", apply(tv, chelsea))
    np.save(tmp_path / "bgr.npy", apply(tv.replace(color="BGR"), chelsea))
    np.save(tmp_path / "batch.npy", np.zeros((2, 3, 8, 8), np.float32))
    args = ["preprocess", "diagnose", "--calib", str(tmp_path / "calib.npy"), "--runtime"]
    assert main(args + [str(tmp_path / "same.npy")]) == 0
    assert capsys.readouterr().out.startswith("MATCH: runtime NCHW [1, 3, 224, 224] uint8")
    assert main(args + [str(tmp_path / "bgr.npy"), "--spec", "classification_torchvision"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("MISMATCH channel_order: runtime channels are reversed")
    assert main(args + [str(tmp_path / "bgr.npy"), "-f", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["kinds"] == ["channel_order"]
    assert main(args + [str(tmp_path / "batch.npy")]) == 2
    assert "batch of 2" in capsys.readouterr().err
    (tmp_path / "junk.npy").write_bytes(b"junk")
    assert main(args + [str(tmp_path / "junk.npy")]) == 2
    assert "not a .npy array" in capsys.readouterr().err


def test_apply_calib_and_fuse(tmp_path, chelsea, capsys):
    from PIL import Image

    Image.fromarray(chelsea).save(tmp_path / "chelsea.png")
    out = tmp_path / "x.npy"
    assert main(["preprocess", "apply", str(tmp_path / "chelsea.png"), "--spec", "yolo_640", "-o", str(out)]) == 0
    np.testing.assert_array_equal(np.load(out), apply(PRESETS["yolo_640"], chelsea))
    for cls in ("a", "b"):
        (tmp_path / "imgs" / cls).mkdir(parents=True)
        for k in range(3):
            Image.fromarray(np.roll(chelsea, 7 * k, axis=1)).save(tmp_path / "imgs" / cls / f"{k}.png")
    assert main(["preprocess", "calib", "--spec", "classification_torchvision", "--images", str(tmp_path / "imgs"),
                 "--n", "4", "--mode", "offload", "--out", str(tmp_path / "cal")]) == 0
    manifest = json.loads((tmp_path / "cal" / "manifest.json").read_text())
    assert manifest["per_class"] == {"a": 2, "b": 2} and manifest["shape"] == [1, 3, 224, 224]
    fused = tmp_path / "fused.onnx"
    assert main(["preprocess", "fuse", _model(tmp_path, 224), "--spec", "classification_torchvision",
                 "-o", str(fused)]) == 0
    assert "subtract into conv1; input 'image' is now uint8" in capsys.readouterr().out
    assert onnx.load(str(fused)).graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.UINT8


def test_usage_errors_exit_2(capsys):
    assert main(["preprocess", "show", "yolo"]) == 2
    assert "preset 'yolo': unknown" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["preprocess", "diagnose", "--runtime", "a.npy"])
    assert info.value.code == 2


def test_inspect_shows_nudenets_metadata_and_refuses_a_missing_file(capsys, tmp_path):
    from npuready.thirdparty.catalog import get

    assert main(["preprocess", "inspect", str(get("nudenet-320n").path())]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "model metadata: imgsz [320, 320] (ultralytics)" in out
    assert out[-1].startswith("model metadata suggests --preset yolov8 --input-shape images=1,3,320,320")
    assert main(["preprocess", "inspect", str(tmp_path / "no.onnx")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
