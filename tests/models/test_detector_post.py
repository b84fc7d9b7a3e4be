import numpy as np
import torch

from npuready.data import detection_set
from npuready.models import load, onnx_path
from npuready.models.detector_eval import onnx_map50
from npuready.models.detector_post import postprocess
from npuready.models.onnx_eval import detector_input, detector_outputs
from npuready.models.train_detector import TEST_IMAGES, decode_torch
from npuready.runtime.decode import make_anchors
from npuready.runtime.detect import postprocess as runtime_postprocess


def test_export_plus_numpy_postprocessing_equals_the_torch_model():
    images = detection_set("test", 6).images
    model = load("detector")
    for (dist, logits), image in zip(detector_outputs(onnx_path("detector"), images), images):
        with torch.no_grad():
            t_dist, t_logits = model(torch.from_numpy(detector_input(image[None])))
        ours = postprocess(dist, logits, score_threshold=0.25)
        ref = postprocess(t_dist.numpy(), t_logits.numpy(), score_threshold=0.25)
        assert len(ours.labels) == len(ref.labels)
        np.testing.assert_array_equal(ours.labels, ref.labels)
        np.testing.assert_allclose(ours.boxes, ref.boxes, atol=1e-3)
        np.testing.assert_allclose(ours.scores, ref.scores, atol=1e-5)


def test_numpy_decode_equals_the_decode_the_detector_was_trained_with():
    rng = np.random.default_rng(0)
    dist = rng.uniform(0, 4, size=(1, 4, 12, 12)).astype(np.float32)
    logits = np.full((1, 10, 12, 12), -20.0, np.float32)
    logits[0, 3, 5, 7] = 5.0  # exactly one confident cell: row 5, column 7, class 3
    det = postprocess(dist, logits, score_threshold=0.5)
    expected = decode_torch(torch.from_numpy(dist))[0, :, 5, 7].numpy()
    assert det.labels.tolist() == [3]
    np.testing.assert_allclose(det.boxes[0], expected, atol=1e-5)


def test_adapter_is_the_runtime_postprocess_on_flattened_grids():
    rng = np.random.default_rng(1)
    dist = rng.uniform(0, 3, size=(1, 4, 12, 12)).astype(np.float32)
    logits = rng.normal(-2, 2, size=(1, 10, 12, 12)).astype(np.float32)
    points, strides = make_anchors([(12, 12)], [8])
    direct = runtime_postprocess(logits.reshape(1, 10, 144), dist.reshape(1, 4, 144), points, strides, 0.3, 0.5, 100)
    ours = postprocess(dist, logits, score_threshold=0.3)
    np.testing.assert_array_equal(ours.boxes, direct.boxes)
    np.testing.assert_array_equal(ours.labels, direct.labels)


def test_onnx_map_on_the_synthetic_test_split_matches_zoo_json(manifest):
    entry = manifest["models"]["detector"]
    map50, per_class = onnx_map50(onnx_path("detector"), detection_set("test", TEST_IMAGES))
    # Same file, same evaluation images as the trainer: only float noise in onnxruntime may differ.
    assert abs(map50 - entry["onnx_test_map50"]) <= 0.005
    assert abs(map50 - entry["test_map50"]) <= 0.01  # torch-scored during training on the same split
    assert len(per_class) == 10
