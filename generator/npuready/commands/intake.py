"""`npuready intake MODEL --target T [--apply]`: diagnose → prescribe → (zoo) apply, as one report."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.catalog import NAIVE_IMAGES, RECOVERY_STEPS
    from npuready.commands.shape_args import add_shape_args
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "intake", help="intake report: diagnose a model, prescribe ordered fixes, apply them to zoo models",
        description="Receive a model (your own .onnx file, or a zoo name such as resnet20 meaning zoo/<name>.onnx) "
                    "and write one report. DIAGNOSIS: lint findings, the CPU/NPU partition verdict, cost hot spots "
                    "(top layers by simulated cycles) and quantisation risks (wide per-channel weight ranges, "
                    "unfoldable norms, activations that need a lookup table). PRESCRIPTION: ordered actions with "
                    "their expected effect (move sigmoid/NMS out of the graph, fix dynamic axes, swap activations, "
                    "array-aligned pruning, per-channel weights, calibration size), computed by re-running the "
                    "linter and the cost model on a rewritten copy of the graph. --apply (zoo classifiers only) "
                    "performs the automatic actions - activation swap + short recovery fine-tune, per-channel PTQ "
                    "with a stratified calibration set - and measures before/after: lint ERRORs, simulated cycles, "
                    "float / fake-quant / integer-engine accuracy on the committed Fashion-MNIST test subset.",
        epilog="Exit codes: 0 report written (whatever it diagnoses), 2 unusable input or usage error. "
               f"'before' in --apply quantises naively: per-tensor weights, first {NAIVE_IMAGES} training images. "
               "Lint/partition rest on ONNX structure, not NPU silicon; cycles are simulated; accuracies measured.")
    p.add_argument("model", metavar="MODEL",
                   help="an .onnx file, or a zoo name (resnet20, mobilenetv2, vit_tiny, tinycnn)")
    p.add_argument("--target", "-t", default=DEFAULT_TARGET,
                   help=f"NPU target (default: {DEFAULT_TARGET}; see 'npuready targets')")
    p.add_argument("--format", "-f", choices=["text", "json"], default="text", help="report format (default: text)")
    p.add_argument("--apply", action="store_true",
                   help="zoo models: apply the automatic actions and measure before/after")
    p.add_argument("--recovery-steps", type=int, default=RECOVERY_STEPS,
                   help=f"--apply: fine-tune steps after an activation swap (batch 128; default: {RECOVERY_STEPS})")
    p.add_argument("--eval-images", type=int, default=None,
                   help="--apply: stratified test images to measure accuracy on (default: all 1000 of the subset)")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the report to FILE (atomically) instead of stdout; - is stdout; a symlink is written "
                        "through to its file; a device, FIFO or folder is refused")
    add_shape_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    from npuready.commands.output import emit
    from npuready.commands.shape_args import pins_from
    from npuready.errors import InputError
    from npuready.intake import intake
    from npuready.intake.render import render

    if args.recovery_steps < 0:
        raise InputError(f"--recovery-steps {args.recovery_steps}: must be 0 or more")
    if args.eval_images is not None and args.eval_images < 10:
        raise InputError(f"--eval-images {args.eval_images}: must be at least 10 (one per class)")
    log = (lambda s: print(f"intake: {s}", file=sys.stderr)) if sys.stderr.isatty() else (lambda s: None)
    report = intake(args.model, args.target, apply=args.apply, recovery_steps=args.recovery_steps,
                    eval_images=args.eval_images, log=log,
                    show_progress=sys.stderr.isatty(), pins=pins_from(args))
    text = render(report, args.format)
    emit(text, args.output)
    return 0
