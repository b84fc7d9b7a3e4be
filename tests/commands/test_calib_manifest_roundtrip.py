"""`preprocess calib` writes the manifest that `quantize --calib` and `deploy --calib` read back."""
import json

import numpy as np
import pytest

from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = str(zoo_dir() / "tinycnn.onnx")  # 1x1x28x28 float input


def _images(folder, layout):
    from PIL import Image

    rng = np.random.default_rng(1)
    for rel in layout:
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(rng.integers(0, 256, (32, 30), dtype=np.uint8)).save(path)


@pytest.fixture
def grey_spec(tmp_path):
    spec = tmp_path / "grey.json"
    spec.write_text(json.dumps({"color": "GRAY", "fit_model_size": "resize", "scale": 1 / 255}))
    return str(spec)


@pytest.mark.parametrize("layout, labels, classes", [
    (["a.png", "b.png", "c.png", "d.png"], [None] * 4, None),                       # unlabelled: null, not ""
    (["cat/a.png", "cat/b.png", "dog/c.png", "dog/d.png"], [0, 0, 1, 1], ["cat", "dog"]),  # names: indices
    (["0/a.png", "0/b.png", "3/c.png", "3/d.png"], [0, 0, 3, 3], None),              # integer folders: as written
])
def test_calib_manifest_round_trips_into_quantize(layout, labels, classes, tmp_path, grey_spec, capsys):
    _images(tmp_path / "images", layout)
    out = tmp_path / "calib"
    assert main(["preprocess", "calib", "--images", str(tmp_path / "images"), "--preset", grey_spec, "--n", "4",
                 "--mode", "offload", "--model", MODEL, "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted((s["label"] for s in manifest["samples"]), key=lambda v: -1 if v is None else v) == labels
    assert manifest.get("classes") == classes

    from npuready.inputs.manifest import read_manifest

    m = read_manifest(out)  # the schema quantize and deploy validate against
    assert m.labels == (None if labels[0] is None else tuple(s["label"] for s in manifest["samples"]))
    capsys.readouterr()
    assert main(["quantize", MODEL, "--calib", str(out), "--out", str(tmp_path / "q.onnx")]) == 0
    assert f"4 calibration images from {out}" in capsys.readouterr().err


def test_manifest_labels_rules():
    from npuready.preprocess.calibration import manifest_labels

    assert manifest_labels(["", "", ""]) == ([None, None, None], None)
    assert manifest_labels([np.int64(2), 0, ""]) == ([2, 0, None], None)
    assert manifest_labels(["7", "12", ""]) == ([7, 12, None], None)
    assert manifest_labels(["rocket", "astronaut", "", "rocket"]) == ([1, 0, None, 1], ["astronaut", "rocket"])
    assert manifest_labels(["3", "cat"]) == ([0, 1], ["3", "cat"])  # one name makes every label a name
