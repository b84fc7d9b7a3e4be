"""`npuready deploy MODEL --target T --calib DIR`: lint → partition → calibrate → PTQ → integer engine → gate →
INT8 TFLite checked against LiteRT → registry."""
from __future__ import annotations

import argparse
import shlex
import sys

CALIB_HELP = (
    "DIR holds the calibration inputs, in one of three layouts: (1) a manifest.json written by "
    "'npuready preprocess calib' with its .npy files; (2) .npy files, one model-input tensor each (float, the "
    "model input's shape with or without the leading batch 1, e.g. 1x1x28x28 or 1x28x28); (3) image files "
    "(.png .jpg .jpeg .bmp .webp .tif) turned into tensors by --preprocess. Files sit directly in DIR (unlabelled) "
    "or in one sub-folder per class (DIR/<label>/...). Labels make the calibration sample stratified; integer "
    "labels (folder names 0, 1, ...) are class indices the gate also scores accuracy against. The sample is "
    "seeded; the files not used for calibration are the held-out parity set.")


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.preset_arg import add_preset_arg
    from npuready.commands.shape_args import add_shape_args
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "deploy", help="deploy pipeline: lint, partition, calibrate, INT8 PTQ, integer engine, parity gate, registry",
        description="Take a float ONNX model (or a zoo name) through the deployment pipeline: lint "
                    "(any ERROR blocks) → partition plan and simulated cost (recorded) → stratified calibration "
                    "from --calib DIR → INT8 post-training quantisation (QDQ, onnxruntime) → integer graph "
                    "(an op without an integer kernel or a stored scale it cannot use blocks) → parity ladder "
                    "and gate (fake-quant and integer rungs each against float: top-1 agreement and accuracy drop; "
                    "failure blocks) → device artifact (the INT8 TFLite, registered only when every int8 tensor "
                    "equals the integer engine's on LiteRT's reference kernels) → registry. An accepted model is "
                    "copied into the registry folder and index.json records its hashes, target, the evidence of "
                    "every stage and the command to reproduce it; artefacts are written into a staging folder inside "
                    "the registry and committed under an exclusive lock, so concurrent deploys lose nothing and a "
                    "crash leaves the previous entry intact. A blocked model is not registered: the reason is "
                    "printed and stored under 'rejections' in index.json. " + CALIB_HELP,
        epilog="Exit codes: 0 registered, 1 blocked (lint ERROR, no integer kernel, or parity gate), 2 unusable "
               "input or usage error. Lint/partition rest on ONNX structure, not NPU silicon; cycles are "
               "simulated; parity numbers are measured on CPU.")
    p.add_argument("model", metavar="MODEL", help="float .onnx file, or a zoo name (zoo/<name>.onnx)")
    p.add_argument("--target", "-t", default=DEFAULT_TARGET, help=f"NPU target (default: {DEFAULT_TARGET})")
    p.add_argument("--calib", required=True, metavar="DIR", help="calibration folder (layouts: see above)")
    p.add_argument("--registry", default="registry", metavar="DIR",
                   help="registry folder, created when missing (default: ./registry)")
    p.add_argument("--name", help="registry name: 1-128 characters from A-Z a-z 0-9 . _ -, starting with a letter or "
                                   "digit, not index.json (default: the zoo name or the file stem, same rules)")
    p.add_argument("--calib-images", type=int, default=100, help="calibration sample size (default: 100)")
    p.add_argument("--parity-images", type=int, default=200,
                   help="held-out inputs for the parity gate (default: up to 200)")
    add_preset_arg(p, "for image folders (zoo models default to their own input contract; --preprocess is "
                      "the older spelling)", "--preprocess", dest="preprocess")
    p.add_argument("--per-tensor", action="store_true", help="per-tensor weight scales (default: per-channel)")
    p.add_argument("--min-agreement", type=float, default=0.99,
                   help="gate: minimum top-1 agreement with float of each quantised rung, fake-quant (the QDQ file as "
                        "stored) and integer (default: 0.99)")
    p.add_argument("--max-drop", type=float, default=0.01,
                   help="gate: maximum accuracy drop float → fake-quant and float → integer, absolute (default: 0.01)")
    p.add_argument("--seed", type=int, default=0, help="calibration sampling seed (default: 0)")
    p.add_argument("--engine", choices=["numpy", "cpp"], default="numpy",
                   help="integer engine for the parity gate (bit-identical twins; cpp is faster; default: numpy)")
    from npuready.commands.verify import add_task_args

    add_task_args(p)
    p.add_argument("--format", "-f", choices=["text", "json"], default="text", help="report format (default: text)")
    add_shape_args(p)
    p.set_defaults(func=run)


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this deployment (defaults left out)."""
    parts = ["npuready", "deploy", args.model, "--target", args.target, "--calib", args.calib,
             "--registry", args.registry]
    for flag, value, default in (("--name", args.name, None), ("--calib-images", args.calib_images, 100),
                                 ("--parity-images", args.parity_images, 200), ("--preset", args.preprocess, None),
                                 ("--min-agreement", args.min_agreement, 0.99), ("--max-drop", args.max_drop, 0.01),
                                 ("--seed", args.seed, 0), ("--engine", args.engine, "numpy"),
                                 ("--task", args.task, None), ("--task-limit", args.task_limit, None)):
        if value != default:
            parts += [flag, str(value)]
    if args.per_tensor:
        parts.append("--per-tensor")
    from npuready.commands.shape_args import pin_arguments

    return shlex.join(parts + pin_arguments(args))


def run(args: argparse.Namespace) -> int:
    from npuready.atomic import dumps_json
    from npuready.commands.preset_arg import preset_from
    from npuready.commands.shape_args import pins_from
    from npuready.deploy.pipeline import Settings, deploy
    from npuready.deploy.render import render_text
    from npuready.errors import InputError
    from npuready.intake.source import resolve

    preset_from(args, "preprocess")  # a bad --preset is refused before the pipeline starts
    if args.calib_images < 1 or args.parity_images < 1:
        raise InputError("--calib-images and --parity-images: must be at least 1")
    if not 0 <= args.min_agreement <= 1 or not 0 <= args.max_drop <= 1:
        raise InputError("--min-agreement and --max-drop: must be fractions in [0, 1]")
    if not 0 <= args.seed < 2**32:
        raise InputError(f"--seed {args.seed}: the calibration sampling seed must be an integer in 0..4294967295")
    src = resolve(args.model)
    preprocess = args.preprocess or (f"zoo:{src.zoo_name}" if src.is_zoo else None)
    settings = Settings(target=args.target, calib_dir=args.calib, registry=args.registry,
                        name=args.name or src.zoo_name, calib_images=args.calib_images,
                        parity_images=args.parity_images, per_channel=not args.per_tensor,
                        min_agreement=args.min_agreement, max_drop=args.max_drop, preprocess=preprocess,
                        seed=args.seed, engine=args.engine, pins=pins_from(args), task=args.task,
                        task_limit=args.task_limit)
    log = (lambda s: print(f"deploy: {s}", file=sys.stderr)) if sys.stderr.isatty() else (lambda s: None)
    result = deploy(src.path, settings, command_line(args), log=log)
    sys.stdout.write(dumps_json(result.to_dict()) if args.format == "json" else render_text(result))
    if not result.registered:
        print(f"npuready deploy: blocked at {result.blocked_stage}: {result.reason}", file=sys.stderr)
    return result.exit_code
