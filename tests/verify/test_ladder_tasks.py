"""The ladder judged by the task a trained model's head does, end to end at the fake-quant rung, on real images;
and a library classifier whose stored top-1 numbers stay identical under the task-aware ladder."""
from __future__ import annotations

import json
import math

import numpy as np
import onnx
import pytest
from PIL import Image

from npuready.cli import main
from npuready.ort_session import literal_session


def _crops(images, size, n, rng):
    """``n`` square crops of the given uint8 photos resized to ``size`` (H, W), RGB float32 HWC in 0…255."""
    out = []
    for i in range(n):
        im = images[i % len(images)]
        im = np.repeat(im[..., None], 3, 2) if im.ndim == 2 else im[..., :3]
        h, w = im.shape[:2]
        s = int(rng.integers(min(h, w) // 2, min(h, w) + 1))
        y, x = int(rng.integers(0, h - s + 1)), int(rng.integers(0, w - s + 1))
        out.append(np.asarray(Image.fromarray(im[y:y + s, x:x + s]).resize(size[::-1]), np.float32))
    return out


def _run(model_path, x):
    s = literal_session(onnx.load(str(model_path)))
    name = s.get_inputs()[0].name
    runs = [s.run(None, {name: x[i:i + 1]}) for i in range(len(x))]
    return [np.concatenate([r[k] for r in runs]) for k in range(len(runs[0]))]


@pytest.fixture(scope="module")
def rnet(tmp_path_factory):
    """mtcnn-rnet (facenet-pytorch's trained R-Net) with 16 face-sized crops of skimage photos, MTCNN's
    (x − 127.5) / 128, and its QDQ model (minmax on the same crops)."""
    import skimage.data as sd

    from npuready.thirdparty.catalog import get

    d = tmp_path_factory.mktemp("rnet")
    photos = [sd.astronaut(), sd.chelsea(), sd.coffee(), sd.rocket()]
    x = np.stack([((c - 127.5) / 128).transpose(2, 0, 1) for c in _crops(photos, (24, 24), 16,
                                                                          np.random.default_rng(0))]).astype(np.float32)
    np.savez(d / "x.npz", x=x)
    path = get("mtcnn-rnet").path()
    assert main(["quantize", str(path), "--calibration", str(d / "x.npz"), "--images", "16", "-o",
                 str(d / "q.onnx")]) == 0
    return path, d / "q.onnx", d / "x.npz", x


def test_mtcnn_rnet_is_judged_by_the_snr_of_both_heads(rnet, capsys):
    path, qdq, data, x = rnet
    capsys.readouterr()
    code = main(["verify", str(path), str(qdq), "--data", str(data), "--images", "16", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    r = doc["result"]
    assert r["task"]["name"] == "regression" and r["task"]["source"] == "inferred"
    assert r["task"]["why"] == "inferred from 2 outputs [1, 4], [1, 2]"
    fq = r["task_scores"]["fake_quant_vs_float"]
    ref, cand = _run(path, x), _run(qdq, x)
    snr = {n: 10 * math.log10(float((a.astype(np.float64) ** 2).sum()) / float(((a - b).astype(np.float64) ** 2).sum()))
           for n, a, b in zip(("boxes", "probs"), ref, cand)}
    assert fq["details"]["snr_db"] == pytest.approx(snr, rel=1e-9)
    assert fq["value"] == pytest.approx(min(snr.values()), rel=1e-9)
    assert fq["metric"] == "SNR (worst output)" and fq["unit"] == "dB" and fq["limit"] == 20.0
    failed_on_snr = any(s.startswith("regression SNR") for s in doc["gate"]["reasons"])
    assert failed_on_snr == (fq["value"] < 20.0)
    assert code == doc["gate"]["exit_code"] == (0 if doc["gate"]["passed"] else 1)
    assert (doc["gate"]["cause"] is None) == doc["gate"]["passed"]


def test_a_declared_task_is_printed_and_used(rnet, capsys):
    path, qdq, data, _ = rnet
    capsys.readouterr()
    main(["verify", str(path), str(qdq), "--data", str(data), "--images", "4", "--task", "classification"])
    out = capsys.readouterr().out
    assert "task: classification (declared; 2 outputs [1, 4], [1, 2])" in " ".join(out.split())
    assert "regression" not in out


def test_ppocr_det_is_judged_by_its_thresholded_text_map(tmp_path, capsys):
    """PP-OCRv4's DBNet detector (Paddle2ONNX export, dynamic dims pinned with the catalog's pins) on text crops."""
    import skimage.data as sd

    from npuready.thirdparty.catalog import get

    m = get("ppocr-det")
    (name, shape), = m.pins.items()
    pin = f"{name}=" + ",".join(str(d) for d in shape)
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    crops = _crops([sd.text(), sd.page()], shape[2:], 4, np.random.default_rng(1))
    x = np.stack([((c[..., ::-1] / 255 - mean) / std).transpose(2, 0, 1) for c in crops]).astype(np.float32)
    np.savez(tmp_path / "x.npz", x=x)
    qdq = tmp_path / "q.onnx"
    # per-tensor weights: the export's opset 12 has no per-channel DequantizeLinear axis
    assert main(["quantize", str(m.path()), "--calibration", str(tmp_path / "x.npz"), "--images", "4",
                 "--per-tensor", "--input-shape", pin, "-o", str(qdq)]) == 0
    capsys.readouterr()
    code = main(["verify", str(m.path()), str(qdq), "--data", str(tmp_path / "x.npz"), "--images", "4",
                 "--input-shape", pin, "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    r = doc["result"]
    assert r["task"]["name"] == "dense" and r["task"]["why"] == f"inferred from output [1, 1, {shape[2]}, {shape[3]}]"
    a, b = _run(m.path(), x)[0] > 0.3, _run(qdq, x)[0] > 0.3
    fq = r["task_scores"]["fake_quant_vs_float"]
    assert fq["metric"] == "IoU of the thresholded map"
    assert fq["value"] == (a & b).sum() / (a | b).sum()
    assert fq["details"]["pixel_agreement"] == (a == b).mean()
    assert any(s.startswith("dense IoU") for s in doc["gate"]["reasons"]) == (fq["value"] < 0.9)
    assert code == doc["gate"]["exit_code"]
    if not doc["gate"]["passed"]:
        assert doc["gate"]["cause"]


@pytest.mark.slow
def test_a_library_classifier_keeps_its_stored_top1_numbers():
    """squeezenet1_1_fm64 (torchvision's architecture, trained on Fashion-MNIST at 64×64) run as experiment
    parity-ladder ran it: the task-aware ladder infers classification and reproduces the stored numbers."""
    import tomllib

    from npuready.paths import experiments_dir
    from npuready.quant.inputs import load_inputs
    from npuready.quant.zoo_qdq import quantize_zoo
    from npuready.verify.ladder import run_ladder

    folder = experiments_dir() / "parity-ladder"
    p = tomllib.loads((folder / "spec.toml").read_text())["params"]
    stored = json.loads((folder / "result.json").read_text())["results"]["squeezenet1_1_fm64"]["methods"]["minmax"]
    fm, qdq = quantize_zoo("squeezenet1_1_fm64", "minmax", p["calibration_images"], p.get("seed", 0))
    shape = tuple(d.dim_value or 1 for d in fm.graph.input[0].type.tensor_type.shape.dim)
    data = load_inputs("fashion-mnist:test", p["images"], shape)
    r = run_ladder(fm, qdq, data.x, data.labels, rounding=p["rounding"], engine=p["engine"], model_name="sq")
    assert r.task.line() == "task: classification (inferred from output [1, 10])"
    for pair in ("integer_vs_float", "fake_quant_vs_float", "integer_vs_fake_quant"):
        assert r.agreement[pair] == stored[f"top1_agreement_{pair}"] == r.task_scores[pair].value
    assert [r.accuracy[k] for k in ("float", "fake_quant", "integer")] == \
        [stored[f"accuracy_{k}"] for k in ("float", "fake_quant", "integer")]
    assert list(r.explanation) == stored["explanation"]
