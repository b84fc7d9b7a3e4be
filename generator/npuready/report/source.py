"""The model a report is about: an ONNX file, or a library recipe exported at run time; shape pins applied."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from npuready.errors import InputError
from npuready.graph import Graph, load
from npuready.report.request import ReportRequest


@dataclass(frozen=True)
class ModelSource:
    graph: Graph
    path: Path
    label: str
    sha256: str
    recipe: str | None
    weights: str  # what the weights are: "as in the file" or "random-initialised (library recipe)"


def resolve(request: ReportRequest) -> ModelSource:
    recipe = request.recipe
    if recipe is not None:
        from npuready.models.library.export import cached_onnx

        path = cached_onnx(recipe)
        weights = "random-initialised (built by the library at run time; nothing downloaded)"
    else:
        path = Path(request.model)
        if not path.is_file():
            raise InputError(f"{path}: no such ONNX file (or name a library recipe as library:NAME)")
        weights = "as stored in the file"
    from npuready.graph.pins import ShapePins, check_batch

    check_batch(request.batch)
    graph = load(path, pins=ShapePins(request.input_shapes, request.batch))  # checks type and size before reading
    with open(path, "rb") as handle:  # hashed in chunks, after the loader accepted the file
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    label = f"library:{recipe}" if recipe else path.name
    if recipe is not None:  # every stage names the model by its recipe, not by a path in this machine's cache
        graph.path, graph.name = None, label
    return ModelSource(graph=graph, path=path, label=label,
                       sha256=digest, recipe=recipe, weights=weights)
