"""The models the cost experiments price: the built-in examples a spec names, then the zoo exports."""
from __future__ import annotations

from typing import Any

from npuready.cost.sources import example_models, zoo_models
from npuready.experiments.context import RunContext


def cost_models(ctx: RunContext) -> dict[str, Any]:
    """Name → model: ``params.examples`` (built-in ModelProtos), then, unless ``params.use_zoo`` is false,
    every committed zoo ONNX file (its Path, hashed as an input of the run)."""
    models: dict[str, Any] = dict(example_models(list(ctx.params.get("examples", []))))
    if ctx.params.get("use_zoo", True):
        for name, path in zoo_models(ctx.repo).items():
            models[name] = ctx.input(path)
    return models
