"""The model a report is about: an ONNX file, or a library recipe exported at run time; shape pins applied."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import onnx

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


def _pinned(model: onnx.ModelProto, pins: tuple[tuple[str, tuple[int, ...]], ...], label: str) -> onnx.ModelProto:
    """Write the pinned dims into the graph inputs and drop stale value_info so shape inference reruns."""
    inputs = {i.name: i for i in model.graph.input}
    for name, shape in pins:
        if name not in inputs:
            raise InputError(f"{label}: input-shape pin names '{name}', which is not a graph input "
                             f"(inputs: {', '.join(inputs)})")
        dims = inputs[name].type.tensor_type.shape.dim
        if len(dims) != len(shape):
            raise InputError(f"{label}: input '{name}' has rank {len(dims)}, the pin gives {len(shape)} dims")
        for d, v in zip(dims, shape):
            d.Clear()
            d.dim_value = v
    del model.graph.value_info[:]
    return model


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
    data = path.read_bytes()
    if request.input_shapes:
        model = _pinned(onnx.load_from_string(data), request.input_shapes, str(path))
        graph = load(model)
        graph.path = path
    else:
        graph = load(path)
    return ModelSource(graph=graph, path=path, label=f"library:{recipe}" if recipe else path.name,
                       sha256=hashlib.sha256(data).hexdigest(), recipe=recipe, weights=weights)
