"""Score zoo ONNX exports with onnxruntime (CPU): classifier accuracy and detector outputs.

The exports have a static batch of 1, so images are fed one at a time, exactly as deployed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

import numpy as np
import onnxruntime as ort


def session(path: str | Path, threads: int = 1) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def classifier_input(images: np.ndarray, mean: float, std: float) -> np.ndarray:
    """uint8 N×28×28 → float32 N×1×28×28 ``(x/255 - mean) / std`` (the zoo input contract)."""
    x = images.astype(np.float32)[:, None] / np.float32(255.0)
    return (x - np.float32(mean)) / np.float32(std)


def classifier_logits(path: str | Path, x: np.ndarray, progress=lambda items, _: items) -> np.ndarray:
    sess = session(path)
    return np.concatenate([sess.run(None, {"input": x[i:i + 1]})[0] for i in progress(range(len(x)), "onnx")])


def classifier_accuracy(path: str | Path, images: np.ndarray, labels: np.ndarray, mean: float, std: float,
                        progress=lambda items, _: items) -> float:
    logits = classifier_logits(path, classifier_input(images, mean, std), progress)
    return float((logits.argmax(1) == labels).mean())


def preset_accuracy(path: str | Path, images: np.ndarray, labels: np.ndarray, preset_name: str,
                    progress=lambda items, _: items) -> float:
    """Accuracy of a classifier whose input contract is the preprocessing preset ``preset_name``."""
    from npuready.preprocess.pipeline import apply
    from npuready.preprocess.presets import preset

    spec = preset(preset_name)
    x = np.concatenate([apply(spec, image) for image in images])
    return float((classifier_logits(path, x, progress).argmax(1) == labels).mean())


def contract_accuracy(path: str | Path, images: np.ndarray, labels: np.ndarray, contract: dict,
                      progress=lambda items, _: items) -> float:
    """Accuracy under a zoo.json input contract: its preset when it names one, else its mean/std."""
    if contract.get("preset"):
        return preset_accuracy(path, images, labels, contract["preset"], progress)
    return classifier_accuracy(path, images, labels, contract["mean"][0], contract["std"][0], progress)


def detector_input(images: np.ndarray) -> np.ndarray:
    """uint8 N×H×W×3 RGB → float32 N×3×H×W in [0, 1]."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2)).astype(np.float32) / np.float32(255.0)


def detector_outputs(path: str | Path, images: np.ndarray,
                     progress=lambda items, _: items) -> Iterable[tuple[np.ndarray, np.ndarray]]:
    """(box_dist 1×4×G×G, cls_logits 1×C×G×G) per image."""
    sess = session(path)
    x = detector_input(images)
    for i in progress(range(len(x)), "onnx"):
        box_dist, cls_logits = sess.run(["box_dist", "cls_logits"], {"input": x[i:i + 1]})
        yield box_dist, cls_logits
