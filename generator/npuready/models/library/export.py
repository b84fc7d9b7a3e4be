"""Export a library-built architecture (random-initialised weights) to ONNX, and cache the exports.

``export_onnx`` traces with ``torch.onnx.export(..., dynamo=False)`` at a static input shape (batch 1
unless asked otherwise) after ``torch.manual_seed(0)``, so two exports of the same recipe give the same
bytes wherever torch's tracer is deterministic. ``cached_onnx`` keeps one file per (recipe, batch, size,
opset, library versions) under ``$NPUREADY_CACHE/library/`` (default ``~/.cache/npuready``), written
atomically. Library models' ONNX files are never committed to the repository.
"""
from __future__ import annotations

import io
import os
import warnings
from importlib import metadata
from pathlib import Path

from npuready.atomic import write_bytes
from npuready.models.library.build import build_module
from npuready.models.library.recipes import Recipe, get_recipe

DEFAULT_OPSET = 17


def io_names(recipe: Recipe) -> tuple[list[str], list[str]]:
    """Input and output names: ultralytics' own exporter's names for YOLO, ``input``/``logits`` otherwise."""
    if recipe.library == "ultralytics":
        return ["images"], (["output0", "output1"] if recipe.task == "segment" else ["output0"])
    return ["input"], ["logits"]


def onnx_bytes(name: str, *, batch: int = 1, dynamic_batch: bool = False, opset: int = DEFAULT_OPSET,
               image_size: int | None = None) -> bytes:
    """The serialised ONNX model of recipe ``name`` (random weights, eval mode)."""
    from npuready.errors import InputError

    recipe = get_recipe(name)
    if batch < 1:
        raise InputError(f"library model '{name}': batch {batch} must be >= 1")
    size = image_size or recipe.image_size
    model = build_module(recipe, size)
    import torch

    inputs, outputs = io_names(recipe)
    axes = {n: {0: "batch"} for n in inputs + outputs} if dynamic_batch else None
    buffer = io.BytesIO()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings about Python control flow on shapes: static export
        torch.onnx.export(model, (torch.zeros(batch, 3, size, size),), buffer, dynamo=False,
                          opset_version=opset, input_names=inputs, output_names=outputs, dynamic_axes=axes,
                          do_constant_folding=True, training=torch.onnx.TrainingMode.EVAL)
    return buffer.getvalue()


def export_onnx(name: str, path: str | os.PathLike, *, batch: int = 1, dynamic_batch: bool = False,
                opset: int = DEFAULT_OPSET, image_size: int | None = None) -> Path:
    """Write recipe ``name`` as ONNX to ``path`` (atomically) and return the path."""
    data = onnx_bytes(name, batch=batch, dynamic_batch=dynamic_batch, opset=opset, image_size=image_size)
    return write_bytes(path, data)


def cache_dir() -> Path:
    return Path(os.environ.get("NPUREADY_CACHE", Path.home() / ".cache" / "npuready")) / "library"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "none"


def cache_key(name: str, *, batch: int = 1, dynamic_batch: bool = False, opset: int = DEFAULT_OPSET,
              image_size: int | None = None) -> str:
    recipe = get_recipe(name)
    size = image_size or recipe.image_size
    shape = "dyn" if dynamic_batch else f"b{batch}"
    versions = f"torch{_version('torch')}-{recipe.library}{_version(recipe.library)}"
    return f"{name}-{shape}-{size}px-opset{opset}-{versions}.onnx"


def cached_onnx(name: str, **kw) -> Path:
    """The export of recipe ``name`` from the cache, exporting it first when absent (same keywords as
    ``export_onnx``)."""
    path = cache_dir() / cache_key(name, **kw)
    if not path.is_file():
        export_onnx(name, path, **kw)
    return path
