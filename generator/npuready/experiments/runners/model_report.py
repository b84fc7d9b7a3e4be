"""Experiment kind `model-report`: one model's report (npuready.report) declared in a spec.

[params]: model (repository-relative .onnx, or library:NAME built at run time with random weights),
targets, input_shapes, calibration, preset, stages, images — see ``report.request.request_from_params``.
"""
from __future__ import annotations

from typing import Any

from npuready.experiments.context import RunContext

_NAME = {"type": "string", "minLength": 1, "maxLength": 200}
PARAMS_SCHEMA: dict[str, Any] = {  # checked before anything runs (experiments/params.py)
    "type": "object",
    "additionalProperties": False,
    "required": ["model"],
    "properties": {
        "model": {**_NAME, "maxLength": 1000},
        "targets": {"type": "array", "items": _NAME, "minItems": 1, "maxItems": 64},
        "input_shapes": {"type": "object", "maxProperties": 256,
                         "additionalProperties": {"type": "array", "maxItems": 16,
                                                  "items": {"type": "integer", "minimum": 1, "maximum": 1 << 20}}},
        "batch": {"type": "integer", "minimum": 1, "maximum": 4096},
        "edges": {"enum": ["auto", "npu", "cpu"]},
        "calibration": {**_NAME, "maxLength": 1000},
        "preset": _NAME,
        "stages": {"type": "array", "items": {"enum": ["lint", "partition", "cost", "quantize"]}, "minItems": 1},
        "images": {"type": "integer", "minimum": 1, "maximum": 100_000},
    },
}
PARAM_PATHS = {"model": "file", "calibration": "file-or-folder"}  # repository-relative, inside it


def run(ctx: RunContext) -> dict[str, Any]:
    from npuready.report import build_report
    from npuready.report.request import request_from_params

    request = request_from_params(dict(ctx.params), f"experiment '{ctx.experiment_id}'")
    relative = None
    if request.recipe is None:
        model = ctx.input(request.model)  # repository files are inputs: editing one makes the result stale
        request = type(request)(**{**request.__dict__, "model": str(model)})
        relative = (str(model), request_from_params(dict(ctx.params)).model)
    record_tools(ctx, request.recipe)
    ctx.seed("torch.manual_seed (library recipes)", 0)
    report = build_report(request)
    report_timings(ctx, report, prefix="report.")
    return _relative(report, *relative) if relative else report


def _relative(value: Any, absolute: str, relative: str) -> Any:
    """The report with every field that holds this machine's absolute model path holding the repository-relative
    path the spec gave instead (a result never names a machine path)."""
    if isinstance(value, dict):
        return {k: _relative(v, absolute, relative) for k, v in value.items()}
    if isinstance(value, list):
        return [_relative(v, absolute, relative) for v in value]
    return relative if value == absolute else value


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
