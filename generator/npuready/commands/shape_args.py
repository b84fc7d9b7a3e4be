"""``--input-shape NAME=D0,D1,…`` and ``--batch N``: the shape pins every verb that reads a model accepts.

``add_shape_args(parser)`` adds both options (and ``--max-constant-bytes``, the loader's budget for
compile-time values, ``npuready.graph.constant_budget``); ``pins_from(args)`` turns them into ``ShapePins`` (bad
values → ``InputError``, exit 2); ``load_pinned(path, args)`` loads a model with them. The pins are applied
before any analysis (``npuready.graph.pins``), then shapes are resolved.
"""
from __future__ import annotations

import argparse

INPUT_SHAPE_HELP = ("fix the shape of graph input NAME before any analysis (repeatable, one per input); "
                    "replaces its symbolic dims, e.g. --input-shape image=1,3,224,224")
BATCH_HELP = ("fix dim 0 (the batch) of every graph input whose dim 0 is symbolic, e.g. --batch 1 for a model "
              "exported with dynamic_axes={'image': {0: 'batch'}}")


MAX_CONSTANT_HELP = ("refuse a model one of whose compile-time values (what constant folding and shape inference "
                     "materialise, e.g. a ConstantOfShape) takes more than N bytes (default {default:,})")


def add_shape_args(parser: argparse.ArgumentParser) -> None:
    from npuready.inputs.budget import MAX_CONSTANT_BYTES

    group = parser.add_argument_group("shape pinning (for models exported with dynamic axes)")
    group.add_argument("--input-shape", action="append", default=[], metavar="NAME=D0,D1,...", help=INPUT_SHAPE_HELP)
    group.add_argument("--batch", type=int, default=None, metavar="N", help=BATCH_HELP)
    group.add_argument("--max-constant-bytes", type=int, default=None, metavar="N",
                       help=MAX_CONSTANT_HELP.format(default=MAX_CONSTANT_BYTES))


def pins_from(args: argparse.Namespace):
    """The ``ShapePins`` the options ask for (empty when neither is given)."""
    from npuready.errors import InputError
    from npuready.graph import constant_budget
    from npuready.graph.pins import ShapePins, check_batch, parse_input_shape

    constant_budget.set_limit(getattr(args, "max_constant_bytes", None))  # process-wide, read by the loader
    check_batch(args.batch)
    shapes = [parse_input_shape(text) for text in args.input_shape]
    names = [n for n, _ in shapes]
    if dup := sorted({n for n in names if names.count(n) > 1}):
        raise InputError(f"--input-shape: input '{dup[0]}' given more than once; give each input one shape")
    return ShapePins(tuple(shapes), args.batch)


def load_pinned(model, args: argparse.Namespace):
    """``npuready.graph.load`` with the pins of ``args``."""
    from npuready.graph import load

    return load(model, pins=pins_from(args))


def pin_arguments(args: argparse.Namespace) -> list[str]:
    """The options as they would be typed again (for a reproducible command line)."""
    out = [] if args.batch is None else ["--batch", str(args.batch)]
    for text in args.input_shape:
        out += ["--input-shape", text]
    return out
