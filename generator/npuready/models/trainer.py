"""Train one zoo model and write ``<out>/<name>.pt``, ``<out>/<name>.onnx`` and its ``zoo.json`` entry."""
from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

import torch

from npuready.models.budget import Budget
from npuready.models.finalize import finalize
from npuready.models.onnx_export import export_onnx, save_checkpoint
from npuready.models.record import model_entry, update_manifest
from npuready.models.zoo import spec as zoo_spec


def library_provenance(spec) -> dict:
    """Which library defines the architecture, in which version, under which constructor name."""
    library, constructor = spec.library
    return {"name": library, "version": metadata.version(library), "constructor": constructor,
            "num_classes": 10, "pretrained": False}


def train_and_save(name: str, epochs: int | None = None, out: str | Path = "zoo", seed: int = 0,
                   threads: int = 2, show_progress: bool = True, log=print, budget: Budget | None = None) -> dict:
    """Train ``name`` for ``epochs`` (default: its recipe) or, when ``budget`` is given, until it is used."""
    spec = zoo_spec(name)
    epochs = epochs or spec.recipe.epochs
    torch.set_num_threads(threads)
    load_before = os.getloadavg()
    if spec.kind == "detector":
        from npuready.models.train_detector import train_detector
        result = train_detector(spec, epochs, seed, show_progress, log, budget)
    else:
        from npuready.models.train_classifier import train_classifier
        result = train_classifier(spec, epochs, seed, show_progress, log, budget)
    out = Path(out)
    save_checkpoint(result.model, out / f"{name}.pt")
    export_onnx(result.model, spec, out / f"{name}.onnx")
    metrics = {
        "epochs": result.epochs, "seed": seed, "train_seconds": round(result.train_seconds, 1),
        "train_cpu_seconds": round(result.train_cpu_seconds, 1),
        "threads": threads,
        "budget": None if budget is None else {"seconds": budget.seconds, "clock": budget.clock},
        "machine": f"{platform.machine()} ({torch.get_num_threads()} torch threads, shared CPU)",
        "recipe": {k: getattr(spec.recipe, k)
                   for k in ("batch", "optimizer", "lr", "weight_decay", "label_smoothing", "augment")},
        "load_average": {"before": [round(v, 2) for v in load_before],
                         "after": [round(v, 2) for v in os.getloadavg()],
                         "note": "1/5/15-minute load averages of the shared machine (os.getloadavg)"},
        "parameters": sum(p.numel() for p in result.model.parameters()),
        **({} if spec.library is None else {"library": library_provenance(spec)}),
        "history": list(result.history),
        **result.metrics,
    }
    update_manifest(out, name, model_entry(spec, out, metrics))
    return finalize(name, out)
