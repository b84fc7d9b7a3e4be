"""`npuready train --arch A`: train a zoo model, export it, and record it in zoo.json (torch extra)."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train", help="train a zoo model on Fashion-MNIST (or the synthetic detection set) and export it",
        description="Train one zoo model with its recipe (OneCycle schedule, light augmentation), then write "
                    "OUT/<arch>.pt (state_dict), OUT/<arch>.onnx (opset 17, static batch 1, post-processing "
                    "outside the graph) and its entry in OUT/zoo.json: input contract, measured test accuracy "
                    "(detector: mAP@0.5) and training seconds. Training uses the full Fashion-MNIST from the "
                    "Debian package dataset-fashion-mnist (the detector composes fresh images from its items "
                    "every epoch); test scores use the full test set (detector: its synthetic test split, "
                    "built from the committed subset). Needs the "
                    "torch extra (pip install 'npuready[torch,data]').",
        epilog="Exit codes: 0 trained and written, 2 unusable input (unknown arch, missing data or torch). "
               "Archs: resnet20, mobilenetv2, vit_tiny, tinycnn, detector, and the library-defined "
               "architectures trained on 64x64 RGB Fashion-MNIST (preset fashion_mnist_64_rgb; needs the corpus "
               "extra): mobilenetv3_small_050_fm64, mobilenetv2_050_fm64 (timm), squeezenet1_1_fm64 (torchvision).")
    p.add_argument("--arch", "-a", required=True, help="zoo model name (see the list below)")
    p.add_argument("--epochs", "-e", type=int, default=None,
                   help="training epochs (default: the arch's recipe, recorded in zoo.json)")
    p.add_argument("--out", "-o", default=None, metavar="DIR", help="output folder (default: the repository's zoo/)")
    p.add_argument("--seed", "-s", type=int, default=0, help="random seed (default: 0)")
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads (default: 2)")
    p.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                   help="train until SECONDS of --clock time are used instead of a fixed epoch count; the "
                        "one-cycle learning-rate schedule follows the fraction of the budget used (default: off)")
    p.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                   help="what --budget measures: process CPU time (cpu, robust on a shared machine) or wall "
                        "time (default: cpu)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.errors import InputError

    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise InputError("needs PyTorch; install the torch extra "
                         "(pip install 'npuready[torch,data]')") from exc
    from npuready.models.trainer import train_and_save
    from npuready.models.zoo import spec
    from npuready.paths import zoo_dir

    spec(args.arch)  # unknown arch → InputError before any work
    if args.epochs is not None and args.epochs < 1:
        raise InputError(f"--epochs {args.epochs}: must be at least 1")
    if args.threads < 1:
        raise InputError(f"--threads {args.threads}: must be at least 1")
    from npuready.models.budget import Budget

    budget = None if args.budget is None else Budget(args.budget, args.clock)
    out = args.out or zoo_dir()
    entry = train_and_save(args.arch, args.epochs, out, args.seed, args.threads,
                           log=lambda line: print(line, file=sys.stderr), budget=budget)
    metric = (f"mAP@0.5 {entry['test_map50']:.4f}" if "test_map50" in entry
              else f"test accuracy {entry['test_accuracy']:.4f}")
    print(f"{args.arch}: {metric} on {entry['test_images']} images, {entry['train_seconds']} s training, "
          f"{entry['epochs']} epochs -> {out}/{args.arch}.pt, {args.arch}.onnx, zoo.json")
    return 0
