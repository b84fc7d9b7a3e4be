import json
from collections import Counter

import numpy as np
import onnx
import pytest
from onnx.reference import ReferenceEvaluator

from npuready.errors import InputError
from npuready.preprocess.calibration import build_calibration_set, stratified_indices
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS

LABELS = np.repeat(np.arange(10), 20)


def test_stratified_sample_is_even_over_classes_and_seeded():
    idx = stratified_indices(LABELS, 25, seed=0)
    counts = Counter(LABELS[idx].tolist())
    assert len(idx) == 25 and len(set(idx.tolist())) == 25
    assert sorted(counts.values()) == [2] * 5 + [3] * 5
    np.testing.assert_array_equal(idx, stratified_indices(LABELS, 25, seed=0))
    assert not np.array_equal(idx, stratified_indices(LABELS, 25, seed=1))
    assert list(idx) == sorted(idx)


def test_small_classes_give_what_they_have_and_others_fill_up():
    labels = np.array([0] * 2 + [1] * 50 + [2] * 50)
    counts = Counter(labels[stratified_indices(labels, 30, seed=3)].tolist())
    assert counts == {0: 2, 1: 14, 2: 14}


def test_sample_size_limits():
    with pytest.raises(InputError, match="calibration size 201: must be between 1 and the 200 available images"):
        stratified_indices(LABELS, 201, seed=0)


def test_body_mode_writes_per_image_hwc_from_the_same_apply(tmp_path, photos):
    images, labels = list(photos.values()), list(photos)
    spec = PRESETS["classification_torchvision"]
    cs = build_calibration_set(images, labels, spec, tmp_path, n=6, seed=0, mode="body")
    assert (cs.shape, cs.dtype, cs.layout) == ((224, 224, 3), "uint8", "HWC")
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["count"] == 6 and manifest["per_class"] == {name: 1 for name in labels}
    first = manifest["samples"][0]
    np.testing.assert_array_equal(np.load(tmp_path / first["file"]),
                                  apply(spec.replace(layout="HWC"), images[first["index"]]))


def test_offload_mode_keeps_the_original_model_input(tmp_path, photos, model_file):
    images, labels = list(photos.values()), list(photos)
    spec = PRESETS["classification"]
    cs = build_calibration_set(images, labels, spec, tmp_path, n=3, seed=2, mode="offload", model=model_file(size=96))
    assert (cs.shape, cs.dtype, cs.layout) == ((1, 3, 96, 96), "float32", "NCHW")
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["spec"]["resize"] == [96, 96] and manifest["rule"].startswith("CPU offload")
    sample = manifest["samples"][1]
    np.testing.assert_array_equal(np.load(tmp_path / sample["file"]),
                                  apply(spec.with_size((96, 96)), images[sample["index"]]))


def test_body_input_runs_the_cpu_head(tmp_path, photos, model_file):
    path = model_file(size=64)
    images, labels = list(photos.values()), list(photos)
    cs = build_calibration_set(images, labels, PRESETS["classification"], tmp_path, n=2, seed=0, mode="body",
                               model=path, body_input="r1")
    assert cs.shape == (1, 16, 32, 32) and cs.layout == "body input r1"
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    sample = manifest["samples"][0]
    model = onnx.load(path)
    model.graph.output.append(onnx.helper.make_tensor_value_info("r1", onnx.TensorProto.FLOAT, None))
    x = apply(PRESETS["classification"].with_size((64, 64)), images[sample["index"]])
    expected = ReferenceEvaluator(model).run(["r1"], {"image": x})[0]
    np.testing.assert_allclose(np.load(tmp_path / sample["file"]), expected, atol=1e-5)


def test_option_errors(tmp_path, photos, model_file):
    images, labels = list(photos.values()), list(photos)
    spec = PRESETS["classification_torchvision"]
    with pytest.raises(InputError, match="calibration mode 'npu'"):
        build_calibration_set(images, labels, spec, tmp_path, mode="npu")
    with pytest.raises(InputError, match="--body-input only applies to mode 'body'"):
        build_calibration_set(images, labels, spec, tmp_path, mode="offload", body_input="r1")
    with pytest.raises(InputError, match="--body-input needs --model"):
        build_calibration_set(images, labels, spec, tmp_path, body_input="r1")
    with pytest.raises(InputError, match="6 images but 5 labels"):
        build_calibration_set(images, labels[:5], spec, tmp_path)
    with pytest.raises(InputError, match="no tensor named 'nowhere'"):
        build_calibration_set(images, labels, PRESETS["classification"], tmp_path, n=1, model=model_file(size=64),
                              body_input="nowhere")


def test_partition_planner_picks_the_body_input(tmp_path, photos, model_file):
    from npuready.preprocess.calibration import planned_body_input
    from npuready.preprocess.fusion import fuse_normalization

    tv = PRESETS["classification_torchvision"]
    original = model_file(size=224)
    fused = tmp_path / "fused.onnx"
    onnx.save(fuse_normalization(original, tv).model, str(fused))
    assert planned_body_input(original, "edge-10", "image") is None  # the body starts at the image input
    assert planned_body_input(fused, "edge-10", "image") == "image__float"  # the Cast head stays on the CPU
    images, labels = list(photos.values()), list(photos)
    cs = build_calibration_set(images, labels, tv, tmp_path / "cal", n=2, mode="body", model=fused, target="edge-10")
    assert (cs.shape, cs.dtype, cs.layout) == ((1, 3, 224, 224), "float32", "body input image__float")
    sample = cs.manifest["samples"][0]
    np.testing.assert_array_equal(np.load(tmp_path / "cal" / sample["file"]),
                                  apply(tv, images[sample["index"]]).astype(np.float32))
    plain = build_calibration_set(images, labels, tv, tmp_path / "cal2", n=2, mode="body", model=original,
                                  target="edge-10")
    assert (plain.shape, plain.dtype, plain.layout) == ((224, 224, 3), "uint8", "HWC")


def test_multimodal_companions_stay_aligned_with_their_image(tmp_path, photos):
    images, labels = list(photos.values()), list(photos)
    tokens = [np.full((1, 4), k, np.int64) for k in range(len(images))]
    spec = PRESETS["classification_torchvision"]
    cs = build_calibration_set(images, labels, spec, tmp_path, n=3, seed=4, companions={"tokens": tokens})
    for sample in cs.manifest["samples"]:
        assert sample["companions"] == {"tokens": sample["file"].replace(".npy", ".tokens.npy")}
        np.testing.assert_array_equal(np.load(tmp_path / sample["companions"]["tokens"]), tokens[sample["index"]])
    with pytest.raises(InputError, match="companion input 'tokens': 2 samples for 6 images"):
        build_calibration_set(images, labels, spec, tmp_path, companions={"tokens": tokens[:2]})
