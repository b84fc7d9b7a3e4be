"""Experiment `zoo-training`: per-model test accuracy of the committed zoo exports and their training cost.

Accuracy is recomputed here from each committed ONNX file with onnxruntime (batch 1, as deployed):
classifiers on the full Fashion-MNIST test set (``test_set = "full"``, needs the Debian package) or
on the committed 1,000-image subset (``"subset"``); the detector's mAP@0.5 after numpy
post-processing on its synthetic test split. Training time, epochs and the PyTorch accuracy come
from ``zoo/zoo.json`` — they were measured once, when the model was trained, and are copied here
unchanged so reruns give identical JSON.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np
import onnxruntime

from npuready.errors import InputError
from npuready.experiments.context import RunContext

TEST_SETS = ("full", "subset")


def _test_images(test_set: str) -> tuple[np.ndarray, np.ndarray, str]:
    if test_set == "full":
        from npuready.data.debian_fashion_mnist import fashion_mnist

        images, labels = fashion_mnist("test")
        return images, labels, "Fashion-MNIST test set (10,000 images, Debian package dataset-fashion-mnist)"
    from npuready.data.subset import fashion_mnist_subset

    images, labels = fashion_mnist_subset("test")
    return images, labels, "committed stratified Fashion-MNIST test subset (data/fashion_mnist_subset.npz)"


def run(ctx: RunContext) -> dict[str, Any]:
    from npuready.data.detection import detection_set
    from npuready.models.detector_eval import onnx_map50
    from npuready.models.onnx_eval import classifier_accuracy
    from npuready.models.train_detector import TEST_IMAGES

    test_set = ctx.params.get("test_set", "full")
    if test_set not in TEST_SETS:
        raise InputError(f"zoo-training: test_set {test_set!r} is not one of {', '.join(TEST_SETS)}")
    ctx.tool("onnxruntime", onnxruntime.__version__)
    zoo = ctx.repo / "zoo"
    manifest = json.loads(ctx.input(zoo / "zoo.json").read_text())["models"]
    images, labels, described = _test_images(test_set)

    rows = []
    for name in ctx.params.get("classifiers", []):
        entry = manifest[name]
        ctx.input(zoo / f"{name}.pt")
        accuracy = classifier_accuracy(ctx.input(zoo / f"{name}.onnx"), images, labels, entry["input"]["mean"][0],
                                       entry["input"]["std"][0], lambda items, _: ctx.progress(items, name))
        rows.append({"model": name, "onnx_accuracy": round(accuracy, 4), "torch_accuracy": entry["test_accuracy"],
                     "target": entry["target"], "meets_target": accuracy >= entry["target"],
                     "parameters": entry["parameters"], "images": int(len(labels))})

    detector_rows = []
    name = ctx.params.get("detector")
    if name:
        entry = manifest[name]
        ctx.input(zoo / f"{name}.pt")
        map50, per_class = onnx_map50(ctx.input(zoo / f"{name}.onnx"), detection_set("test", TEST_IMAGES),
                                      lambda items, _: ctx.progress(items, name))
        detector_rows.append({"model": name, "onnx_map50": round(map50, 4), "torch_map50": entry["test_map50"],
                              "target": entry["target"], "meets_target": map50 >= entry["target"],
                              "per_class_ap50": {str(k): round(v, 4) for k, v in per_class.items()},
                              "parameters": entry["parameters"], "images": TEST_IMAGES})

    training = []
    for model in [r["model"] for r in rows + detector_rows]:
        e = manifest[model]
        training.append({"model": model, "epochs": e["epochs"], "train_seconds": e["train_seconds"],
                         "train_cpu_seconds": e.get("train_cpu_seconds"), "threads": e["threads"],
                         "budget": e.get("budget"), "recipe": e["recipe"], "seed": e["seed"]})
    return {
        "classifiers": {"evidence": "measured", "test_set": described,
                        "note": "onnxruntime CPU on the committed ONNX files, batch 1", "rows": rows},
        "detector": {"evidence": "measured",
                     "test_set": f"synthetic detection test split ({TEST_IMAGES} images, seed 2)",
                     "note": "onnxruntime outputs + numpy sigmoid/dist2bbox/NMS (npuready.runtime.detect)",
                     "rows": detector_rows},
        "training": {"evidence": "measured",
                     "note": "copied from zoo/zoo.json: measured once by `npuready train` on a CPU shared with "
                             "other jobs (wall seconds depend on load; CPU seconds are process time)",
                     "rows": training},
    }
