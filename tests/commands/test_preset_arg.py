"""Every verb takes the same --preset NAME|spec.json and refuses a bad one before any analysis runs."""
import json

import numpy as np
import pytest

from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = str(zoo_dir() / "tinycnn.onnx")


@pytest.fixture
def no_analysis(monkeypatch):
    """Make every analysis entry point fail loudly: a refusal must come before any of them."""
    import npuready.deploy.pipeline as deploy_pipeline
    import npuready.graph as graph
    import npuready.report as report

    def boom(*a, **k):
        raise AssertionError("analysis ran before the --preset check")

    monkeypatch.setattr(report, "build_report", boom)
    monkeypatch.setattr(deploy_pipeline, "deploy", boom)
    monkeypatch.setattr(graph, "load", boom)


VERBS = {
    "report": ["report", MODEL, "--calib", "photos", "--out", "OUT"],
    "quantize": ["quantize", MODEL, "--out", "OUT/q.onnx"],
    "verify": ["verify", MODEL, MODEL],
    "deploy": ["deploy", MODEL, "--calib", "OUT", "--registry", "OUT/reg"],
    "preprocess calib": ["preprocess", "calib", "--out", "OUT"],
}


def _argv(verb, tmp_path, preset):
    return [a.replace("OUT", str(tmp_path)) for a in VERBS[verb]] + ["--preset", preset]


@pytest.mark.parametrize("verb", list(VERBS))
def test_unknown_preset_is_refused_first_with_one_line(verb, tmp_path, capsys, no_analysis):
    assert main(_argv(verb, tmp_path, "paddle-ocr")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "preset 'paddle-ocr': unknown; choose one of classification, " in err


@pytest.mark.parametrize("verb", list(VERBS))
def test_bad_spec_file_is_refused_first_with_one_line(verb, tmp_path, capsys, no_analysis):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"color": "BGR", "mean": [0.5, 0.5, 0.5]}))  # mean without std
    assert main(_argv(verb, tmp_path, str(bad))) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mean and std go together" in err


def test_report_accepts_a_spec_file_for_a_folder_of_photos(tmp_path, capsys):
    from PIL import Image

    photos = tmp_path / "photos"
    photos.mkdir()
    rng = np.random.default_rng(0)
    for i in range(2):
        Image.fromarray(rng.integers(0, 256, (40, 50), dtype=np.uint8)).save(photos / f"p{i}.png")
    spec = tmp_path / "grey.json"
    spec.write_text(json.dumps({"color": "GRAY", "fit_model_size": "resize", "scale": 1 / 255}))
    from npuready.report.calibration import calibration_inputs
    from npuready.graph import load

    x, labels, what = calibration_inputs(str(photos), str(spec), load(MODEL), 4)
    assert x.shape == (2, 1, 28, 28) and labels is None and what == f"2 photos from {photos} through preset {spec}"


def test_quantize_reads_a_folder_of_images_through_the_preset(tmp_path, capsys):
    from PIL import Image

    folder = tmp_path / "images"
    for label in ("0", "3"):
        (folder / label).mkdir(parents=True)
        Image.fromarray(np.full((28, 28), 40 * (int(label) + 1), np.uint8)).save(folder / label / "a.png")
    spec = tmp_path / "grey.json"
    spec.write_text(json.dumps({"color": "GRAY", "fit_model_size": "resize", "scale": 1 / 255}))
    from npuready.quant.inputs import load_inputs
    from npuready.preprocess import resolve_spec

    data = load_inputs(str(folder), 8, (1, 1, 28, 28), spec=resolve_spec(str(spec)))
    assert data.x.shape == (2, 1, 28, 28) and data.labels.tolist() == [0, 3]
    np.testing.assert_allclose(data.x[:, 0, 0, 0], [40 * np.float32(1 / 255), 160 * np.float32(1 / 255)], rtol=1e-6)
    assert main(["quantize", MODEL, "--calib", str(folder), "--preset", str(spec), "--out",
                 str(tmp_path / "q.onnx")]) == 0
    assert "2 calibration images from 2 images from" in capsys.readouterr().err
