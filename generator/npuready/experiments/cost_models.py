"""The models the cost experiments price: the built-in examples a spec names, then the zoo exports."""
from __future__ import annotations

from typing import Any

from npuready.cost.examples import EXAMPLES
from npuready.cost.sources import example_models, zoo_models
from npuready.errors import InputError
from npuready.experiments.context import RunContext


def cost_models(ctx: RunContext) -> dict[str, Any]:
    """Name → model: ``params.examples`` (built-in ModelProtos), then, unless ``params.use_zoo`` is false,
    every committed zoo ONNX file (its Path, hashed as an input of the run)."""
    return {name: cost_model(ctx, name) for name in cost_model_names(ctx)}


def cost_model_names(ctx: RunContext) -> list[str]:
    """The names ``cost_models`` returns, in its order, without building or hashing anything."""
    names = list(ctx.params.get("examples", []))
    unknown = [n for n in names if n not in EXAMPLES]
    if unknown:
        raise InputError(f"experiment '{ctx.experiment_id}': unknown example model(s) {unknown} in params.examples; "
                         f"choose from {sorted(EXAMPLES)}")
    zoo = list(zoo_models(ctx.repo)) if ctx.params.get("use_zoo", True) else []
    return list(dict.fromkeys(names + zoo))


def cost_model(ctx: RunContext, name: str) -> Any:
    """One model by name: a zoo export (its Path, hashed as an input) or a built-in example ModelProto."""
    zoo = zoo_models(ctx.repo) if ctx.params.get("use_zoo", True) else {}
    if name in zoo:
        return ctx.input(zoo[name])
    return example_models([name])[name]
