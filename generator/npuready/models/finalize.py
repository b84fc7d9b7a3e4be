"""After training: score the written ONNX export on data every machine has, then refresh the docs.

Classifiers: accuracy of ``<name>.onnx`` (onnxruntime, batch 1) on the committed 1,000-image test
subset — tests recompute it from the ONNX file and compare. Detector: mAP@0.5 of the ONNX export +
numpy post-processing on the synthetic test split. Both land in ``zoo.json``; ``README.md`` is
regenerated from it.
"""
from __future__ import annotations

from pathlib import Path

from npuready.atomic import write_text
from npuready.models.record import read_manifest, update_manifest
from npuready.models.zoo import spec as zoo_spec


def onnx_metrics(name: str, folder: str | Path) -> dict:
    spec = zoo_spec(name)
    path = Path(folder) / f"{name}.onnx"
    if spec.kind == "detector":
        from npuready.data.detection import detection_set
        from npuready.models.detector_eval import onnx_map50
        from npuready.models.train_detector import TEST_IMAGES

        map50, _ = onnx_map50(path, detection_set("test", TEST_IMAGES))
        return {"onnx_test_map50": round(map50, 4)}
    from npuready.data.subset import fashion_mnist_subset
    from npuready.models.onnx_eval import contract_accuracy
    from npuready.models.record import input_contract

    images, labels = fashion_mnist_subset("test")
    return {"onnx_subset_accuracy": contract_accuracy(path, images, labels, input_contract(spec)),
            "onnx_subset_images": len(labels)}


def finalize(name: str, folder: str | Path) -> dict:
    """Add the ONNX-derived metrics to ``name``'s manifest entry and rewrite ``README.md``."""
    from npuready.models.readme import render_readme

    folder = Path(folder)
    entry = {**read_manifest(folder)["models"][name], **onnx_metrics(name, folder)}
    update_manifest(folder, name, entry)
    write_text(folder / "README.md", render_readme(read_manifest(folder)))
    return entry
