"""`npuready quantize` then `npuready verify --engine cpp --litert` on library-built architectures, as a user runs
them (random-initialised weights, 64×64 crops of the bundled photos through each architecture's preset; the
YOLOv8n NPU body cut by `npuready partition --extract`): never exit 2, LiteRT's reference kernels compute the
same int8 codes on every tensor, and a failing gate says why. Needs the corpus and validate extras."""
import json

import numpy as np
import onnx
import pytest
from corpus_extra import needs_corpus

from npuready.cli import main

pytestmark = [needs_corpus, pytest.mark.slow]

PRESETS = {"deit_tiny": "vision_transformer", "yolov8n": "detection"}
MODELS = ["deit_tiny", "resnet18", "mobilenetv2", "squeezenet1_1", "repvgg_a0", "mobilenetv3_small",
          "efficientnet_lite0", "regnety_200mf", "yolov8n"]


def _float_model(name, tmp_path, capsys):
    from npuready.models.library.export import cached_onnx

    path = cached_onnx(name, image_size=64)
    if name != "yolov8n":
        return path
    assert main(["partition", str(path), "--target", "ethos-u55-128", "--extract", str(tmp_path / "parts")]) == 0
    capsys.readouterr()
    return tmp_path / "parts" / "body_0.onnx"


@pytest.mark.parametrize("name", MODELS)
def test_verify_runs_a_library_architecture_bit_exactly_against_litert(name, tmp_path, capsys):
    pytest.importorskip("ai_edge_litert")
    from npuready.experiments.runners.bitexact_realworld import _photo_inputs

    model = _float_model(name, tmp_path, capsys)
    np.savez(tmp_path / "x.npz", x=_photo_inputs(onnx.load(str(model)), PRESETS.get(name, "classification"), 16, 1))
    assert main(["quantize", str(model), "--calibration", str(tmp_path / "x.npz"), "--images", "16",
                 "--out", str(tmp_path / "q.onnx")]) == 0
    capsys.readouterr()
    code = main(["verify", str(model), str(tmp_path / "q.onnx"), "--data", str(tmp_path / "x.npz"), "--images", "6",
                 "--engine", "cpp", "--litert", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and not doc["result"].get("refused")
    assert doc["litert_reference"]["tensors_compared"] > 0 and doc["litert_reference"]["tensors_mismatched"] == 0
    assert code == 0 or doc["gate"]["cause"]
