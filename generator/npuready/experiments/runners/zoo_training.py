"""Experiment `zoo-training`: per-model test accuracy of the committed zoo exports and their training cost.

Accuracy is recomputed here from each committed ONNX file with onnxruntime (batch 1, as deployed):
classifiers on the full Fashion-MNIST test set (``test_set = "full"``, needs the Debian package) or
on the committed 1,000-image subset (``"subset"``); the detector's mAP@0.5 after numpy
post-processing on its synthetic test split. Training time, epochs and the PyTorch accuracy come
from ``zoo/zoo.json`` — they were measured once, when the model was trained, and are copied here
unchanged so reruns give identical JSON. Unit of work: one model.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np
import onnxruntime

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.task import Task

TEST_SETS = ("full", "subset")
DESCRIBED = {"full": "Fashion-MNIST test set (10,000 images, Debian package dataset-fashion-mnist)",
             "subset": "committed stratified Fashion-MNIST test subset (data/fashion_mnist_subset.npz)"}


def _test_images(test_set: str) -> tuple[np.ndarray, np.ndarray, str]:
    if test_set == "full":
        from npuready.data.debian_fashion_mnist import fashion_mnist

        images, labels = fashion_mnist("test")
        return images, labels, DESCRIBED[test_set]
    from npuready.data.subset import fashion_mnist_subset

    images, labels = fashion_mnist_subset("test")
    return images, labels, DESCRIBED[test_set]


def _test_set(ctx: RunContext) -> str:
    test_set = ctx.params.get("test_set", "full")
    if test_set not in TEST_SETS:
        raise InputError(f"zoo-training: test_set {test_set!r} is not one of {', '.join(TEST_SETS)}")
    return test_set


def tasks(ctx: RunContext) -> list[Task]:
    """One task per classifier, one for the detector."""
    _test_set(ctx)
    name = ctx.params.get("detector")
    return ([Task(f"classifier:{n}", {"model": n}) for n in ctx.params.get("classifiers", [])]
            + ([Task(f"detector:{name}", {"model": name})] if name else []))


def _library_columns(entry: dict) -> dict[str, Any]:
    """Where a library-defined architecture came from, its input preset and the machine's load while it
    trained (1-minute load average before/after), as flat columns; nothing for the zoo's own models."""
    if "library" not in entry:
        return {}
    lib, load = entry["library"], entry.get("load_average", {})
    return {"library": f"{lib['name']} {lib['version']} {lib['constructor']}", "preset": entry["input"].get("preset"),
            "load_1min_before": load.get("before", [None])[0], "load_1min_after": load.get("after", [None])[0]}


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    ctx.tool("onnxruntime", onnxruntime.__version__)
    zoo = ctx.repo / "zoo"
    manifest = json.loads(ctx.input(zoo / "zoo.json").read_text())["models"]
    name = args["model"]
    entry = manifest[name]
    ctx.input(zoo / f"{name}.pt")
    if name == ctx.params.get("detector"):
        from npuready.data.detection import detection_set
        from npuready.models.detector_eval import onnx_map50
        from npuready.models.train_detector import TEST_IMAGES

        map50, per_class = onnx_map50(ctx.input(zoo / f"{name}.onnx"), detection_set("test", TEST_IMAGES),
                                      lambda items, _: ctx.progress(items, name))
        row = {"model": name, "onnx_map50": round(map50, 4), "torch_map50": entry["test_map50"],
               "target": entry["target"], "meets_target": map50 >= entry["target"],
               "per_class_ap50": {str(k): round(v, 4) for k, v in per_class.items()},
               "parameters": entry["parameters"], "images": TEST_IMAGES}
    else:
        from npuready.models.onnx_eval import contract_accuracy

        images, labels, _ = _test_images(_test_set(ctx))
        accuracy = contract_accuracy(ctx.input(zoo / f"{name}.onnx"), images, labels, entry["input"],
                                     lambda items, _: ctx.progress(items, name))
        row = {"model": name, "onnx_accuracy": round(accuracy, 4), "torch_accuracy": entry["test_accuracy"],
               "target": entry["target"], "meets_target": accuracy >= entry["target"],
               "parameters": entry["parameters"], "images": int(len(labels))}
    training = {"model": name, "epochs": entry["epochs"], "train_seconds": entry["train_seconds"],
                "train_cpu_seconds": entry.get("train_cpu_seconds"), "threads": entry["threads"],
                "budget": entry.get("budget"), "recipe": entry["recipe"], "seed": entry["seed"],
                **_library_columns(entry)}
    return {"row": row, "training": training}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    from npuready.models.train_detector import TEST_IMAGES

    rows = [o["row"] for key, o in outputs.items() if key.startswith("classifier:")]
    detector_rows = [o["row"] for key, o in outputs.items() if key.startswith("detector:")]
    training = [o["training"] for key, o in outputs.items() if key.startswith("classifier:")]
    training += [o["training"] for key, o in outputs.items() if key.startswith("detector:")]
    return {
        "classifiers": {"evidence": "measured", "test_set": DESCRIBED[_test_set(ctx)],
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
