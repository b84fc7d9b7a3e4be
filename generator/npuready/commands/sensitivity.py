"""`npuready sensitivity FLOAT.onnx --calib SRC --target T`: which quantised layers cost the task metric, and
what keeping each in float costs on the target."""
from __future__ import annotations

import argparse
import sys


def add_calibration_args(p: argparse.ArgumentParser) -> None:
    """The calibration options ``sensitivity`` shares with ``quantize --keep-float auto``."""
    p.add_argument("--holdout", type=int, default=200,
                   help="held-out calibration-source images the layers are scored on (default: 200)")


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.catalog import OBSERVER_NAMES
    from npuready.commands.preset_arg import add_preset_arg
    from npuready.commands.shape_args import add_shape_args
    from npuready.commands.verify import add_task_args
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "sensitivity", help="per-layer INT8 sensitivity: the task metric with each layer kept float, and its cost",
        description="Quantise the float model once (as 'npuready quantize' does), then for every quantised layer "
                    "measure on the fake-quant rung (onnxruntime) the task metric against float when only that "
                    "layer is kept in float, and when only its output activation is left unrounded, plus the "
                    "SQNR (dB) at its output; metrics are measured on held-out images of the calibration source. "
                    "Each row also carries what keeping the layer float costs on each --target (the layer moves "
                    "to the CPU: cycles, CPU<->NPU bytes and segments added to the partition plan; simulated).",
        epilog="Exit codes: 0 written, 2 unusable input or usage error.")
    p.add_argument("model", metavar="FLOAT.onnx", help="float ONNX model")
    p.add_argument("--calib", "--calibration", dest="calibration", default="fashion-mnist:train",
                   help="calibration inputs, as for 'npuready quantize' (default: fashion-mnist:train)")
    add_preset_arg(p, "turns a --calib folder of images into model inputs")
    p.add_argument("--method", choices=OBSERVER_NAMES, default="minmax", help="activation observer (default: minmax)")
    p.add_argument("--images", type=int, default=256, help="calibration images (default: 256)")
    add_calibration_args(p)
    p.add_argument("--per-tensor", action="store_true", help="per-tensor weight scales (default: per-channel)")
    p.add_argument("--target", "-t", action="append", default=None, metavar="T",
                   help=f"NPU target for the cost columns; repeat for several (default: {DEFAULT_TARGET})")
    add_task_args(p, limit=False)
    p.add_argument("--top", type=int, default=10, metavar="K", help="rows to show (default: 10; 0 = all)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report here (default: stdout)")
    add_shape_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.commands.output import emit, progress
    from npuready.commands.preset_arg import preset_from
    from npuready.errors import InputError
    from npuready.targets import DEFAULT_TARGET
    from npuready.targets.load import load_target

    spec = preset_from(args)
    if args.top < 0:
        raise InputError(f"--top {args.top}: must be 0 (all) or more")
    targets = [load_target(t).name for t in (args.target or [DEFAULT_TARGET])]  # refuse an unknown one first
    from npuready.sensitivity.build import build_qdq
    from npuready.sensitivity.cost import layer_costs
    from npuready.sensitivity.measure import measure_sensitivity, with_costs
    from npuready.sensitivity.render import to_json, to_text

    from npuready.commands.shape_args import load_pinned

    built = build_qdq(load_pinned(args.model, args), args, spec)
    table = measure_sensitivity(built.float_model, built.qdq, built.split.holdout, task=args.task,
                                progress=progress(), model_name=built.name)
    table = with_costs(table, layer_costs(built.float_model, [r.name for r in table.rows], targets))
    top = args.top or None
    emit(to_json(table, top) if args.format == "json" else to_text(table, top, targets), args.output)
    print(f"{len(table.rows)} layers scored on {table.images} held-out images of {built.split.source}",
          file=sys.stderr)
    return 0
