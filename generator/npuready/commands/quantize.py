"""`npuready quantize M.onnx --method ... --out Q.onnx`: post-training quantisation to QDQ ONNX."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.catalog import OBSERVER_NAMES
    from npuready.commands.preset_arg import add_preset_arg
    from npuready.commands.shape_args import add_shape_args

    p = sub.add_parser(
        "quantize", help="post-training INT8 quantisation of a float ONNX model to QDQ ONNX",
        description="Calibrate activation ranges with an observer (minmax, percentile 99.99, mse, entropy/KL) "
                    "and write a QDQ ONNX model that onnxruntime runs: int8 asymmetric per-tensor activations "
                    "(or uint8), int8 symmetric weights (per-channel unless --per-tensor), int32 bias. "
                    "--baseline writes onnxruntime's own quantize_static (MinMax) on the same calibration set.",
        epilog="Exit codes: 0 written, 2 unusable input or usage error.")
    p.add_argument("model", metavar="M.onnx", help="float ONNX model")
    p.add_argument("--method", choices=OBSERVER_NAMES, default="minmax",
                   help="activation observer (default: minmax)")
    p.add_argument("--out", "-o", required=True, metavar="Q.onnx", help="where to write the QDQ model")
    p.add_argument("--calibration", "--calib", default="fashion-mnist:train",
                   help="calibration inputs: fashion-mnist:train, a calibration folder (manifest.json, from "
                        "'npuready preprocess calib'), a folder of images with --preset, or an .npz with x "
                        "(default: fashion-mnist:train)")
    add_preset_arg(p, "turns a --calib folder of images into model inputs")
    p.add_argument("--images", type=int, default=256, help="calibration images (default: 256, stratified)")
    p.add_argument("--per-tensor", action="store_true", help="per-tensor weight scales (default: per-channel)")
    p.add_argument("--activation", choices=["int8", "uint8"], default="int8",
                   help="activation type (default: int8; the integer engine needs int8)")
    p.add_argument("--baseline", action="store_true",
                   help="write onnxruntime quantize_static (MinMax) instead of our observer")
    p.add_argument("--layernorm", choices=["decompose", "keep"], default="decompose",
                   help="decompose (default): rewrite each LayerNormalization before calibration into the int8 "
                        "ops a TFLite converter emits (mean, subtract, square, mean, add epsilon, reciprocal square "
                        "root as a table, multiply, add), so the model runs on LiteRT and 'verify --litert' can "
                        "check it; keep: leave it whole (the integer engine then uses its own integer LayerNorm, "
                        "which LiteRT cannot run)")
    _add_keep_float_args(p)
    add_shape_args(p)
    p.set_defaults(func=run, output_files=("out",))  # a file, checked before the work


def _add_keep_float_args(p: argparse.ArgumentParser) -> None:
    from npuready.commands.verify import add_task_args
    from npuready.targets import DEFAULT_TARGET

    g = p.add_argument_group("mixed precision (layers kept in float)")
    g.add_argument("--keep-float", metavar="NODE,NODE|auto",
                   help="keep these quantised layers in float (float weights, float compute, int8 activations "
                        "around them; the integer engine runs them on the CPU), or auto: choose them from the "
                        "sensitivity table, best metric gain per added cycle first, until --min-metric is reached "
                        "on held-out calibration images. Writes <out>.keep-float.json beside the model: each kept "
                        "layer with its reason and its cost on --target (simulated)")
    g.add_argument("--min-metric", type=float, metavar="X", help="--keep-float auto: the task metric to reach")
    g.add_argument("--max-extra-cycles", type=int, metavar="C",
                   help="--keep-float auto: never add more than C cycles on --target (simulated)")
    g.add_argument("--target", "-t", default=DEFAULT_TARGET,
                   help=f"target the costs are for (default: {DEFAULT_TARGET})")
    g.add_argument("--holdout", type=int, default=200,
                   help="held-out calibration-source images the search scores on (default: 200)")
    g.add_argument("--score-on", choices=["integer", "fake-quant"], default="integer",
                   help="--keep-float: measure the metric on the integer engine (default) or on fake-quant")
    add_task_args(g, limit=False)


def run(args: argparse.Namespace) -> int:
    from npuready.atomic import write_bytes
    from npuready.commands.preset_arg import preset_from
    from npuready.errors import InputError
    from npuready.commands.shape_args import load_pinned
    from npuready.importer.opset import MIN_OPSET

    spec = preset_from(args)  # before the model is loaded
    from npuready.quant.inputs import load_inputs
    from npuready.quant.qdq_check import check_qdq
    from npuready.quant.quantised_input import refuse_quantised
    from npuready.quant.ptq import baseline_model, quantize_model
    from npuready.verify.data_check import check_calibration

    if args.images < 1:
        raise InputError(f"--images {args.images}: must be at least 1")
    g = load_pinned(args.model, args)
    refuse_quantised(g, args.model)
    if g.imported is not None and (kept := g.imported.of("opset-kept")):
        raise InputError(f"{args.model}: {kept[0].detail}; per-channel QDQ needs opset {MIN_OPSET} or newer — "
                         f"re-export the model at opset {MIN_OPSET}+")
    shape = tuple(d if isinstance(d, int) else 1 for d in (g.inputs[0].shape or ()))
    auto = _check_keep_float(args)
    holdout = None
    if auto or args.keep_float:
        from npuready.sensitivity.data import split_inputs

        split = split_inputs(args.calibration, args.images, args.holdout, shape, spec)
        data, holdout = load_inputs(args.calibration, args.images, shape, spec=spec), split.holdout
    else:
        data = load_inputs(args.calibration, args.images, shape, spec=spec)
    check_calibration(data.x, args.calibration)
    batches = [data.x[i:i + 1] for i in range(len(data.x))]
    model, decomposed = g.model, 0
    if args.layernorm == "decompose":
        from npuready.quant.decompose_layernorm import decompose_layernorm

        model, decomposed = decompose_layernorm(model)
    if args.baseline:
        q = baseline_model(model, batches, per_channel=not args.per_tensor, activation_type=args.activation)
    else:
        q = quantize_model(model, batches, args.method, per_channel=not args.per_tensor,
                           activation_type=args.activation)
    check_qdq(q, args.out)
    kept = ""
    if args.keep_float:
        q, kept = _keep_float(args, model, q, holdout, data.source)
    write_bytes(args.out, q.SerializeToString())
    if g.imported:  # after the write: an exit 2 on the way (calibration, output) prints its one line alone
        print(g.imported.summary(), file=sys.stderr)
    what = "onnxruntime baseline" if args.baseline else f"method {args.method}"
    norms = f"; {decomposed} LayerNormalization decomposed into int8 ops" if decomposed else ""
    print(f"wrote {args.out} ({what}, {len(batches)} calibration images from {data.source}{norms}){kept}",
          file=sys.stderr)
    return 0


def _check_keep_float(args) -> bool:
    from npuready.errors import InputError
    from npuready.targets.load import load_target

    auto = args.keep_float == "auto"
    if not args.keep_float and (args.min_metric is not None or args.max_extra_cycles is not None):
        raise InputError("--min-metric / --max-extra-cycles: only with --keep-float auto")
    if auto and args.min_metric is None:
        raise InputError("--keep-float auto: needs --min-metric X (the task metric to reach on held-out images)")
    if args.keep_float:
        load_target(args.target)  # an unknown target is refused before calibration
    return auto


def _keep_float(args, model, q, holdout, source: str):
    from npuready.commands.output import progress
    from npuready.sensitivity.keep_float_build import build_mixed, record_path, write_record
    from npuready.quant.prepare import fold_constants

    mixed, choice, table = build_mixed(fold_constants(model), q, args.keep_float, args.target, holdout,
                                       args.task, args.min_metric, args.max_extra_cycles, args.score_on,
                                       progress())
    write_record(args.out, choice, table, source)
    metric = ("" if choice.metric is None
              else f", metric {choice.metric_int8:.4f} -> {choice.metric:.4f} ({choice.rung})")
    return mixed, (f"; {len(choice.kept)} layers kept float (+{choice.extra_cycles} cycles on {choice.target}, "
                   f"simulated{metric}; {choice.stopped_by}); record {record_path(args.out)}")
