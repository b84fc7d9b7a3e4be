"""Experiment kind `model-report`: one model's report (npuready.report) declared in a spec.

[params]: model (repository-relative .onnx, or library:NAME built at run time with random weights),
targets, input_shapes, calibration, preset, stages, images — see ``report.request.request_from_params``.
"""
from __future__ import annotations

from typing import Any

from npuready.experiments.context import RunContext


def run(ctx: RunContext) -> dict[str, Any]:
    from npuready.report import build_report
    from npuready.report.request import request_from_params

    request = request_from_params(dict(ctx.params), f"experiment '{ctx.experiment_id}'")
    if request.recipe is None:
        model = ctx.input(request.model)  # repository files are inputs: editing one makes the result stale
        request = type(request)(**{**request.__dict__, "model": str(model)})
    record_tools(ctx, request.recipe)
    ctx.seed("torch.manual_seed (library recipes)", 0)
    report = build_report(request)
    report_timings(ctx, report, prefix="report.")
    return report


def report_timings(ctx: RunContext, report: dict[str, Any], prefix: str) -> None:
    """Move the report's wall seconds (its ``timing`` section) into the run's timing block: they change with
    every run and the machine's load, the rest of the report does not."""
    for key, seconds in report.pop("timing", {}).items():
        if key != "evidence":
            ctx.timing(prefix + key, seconds)


def record_tools(ctx: RunContext, recipe: str | None) -> None:
    import onnx
    import onnxruntime

    ctx.tool("onnx", onnx.__version__)
    ctx.tool("onnxruntime", onnxruntime.__version__)
    if recipe is not None:
        from importlib import metadata

        from npuready.models.library.recipes import get_recipe

        library = get_recipe(recipe).library
        for dist in ("torch", "torchvision", library):
            ctx.tool(dist, metadata.version(dist))
