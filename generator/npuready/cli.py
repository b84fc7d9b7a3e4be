"""The `npuready` command line: thin. Parses arguments and calls one function per verb.

Every verb lives in ``npuready/commands/<verb>.py`` with ``register(subparsers)`` which
adds its parser and sets ``func``. Bad input (``InputError``) prints one line and exits 2.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from npuready.errors import InputError

# Explicit registry of verbs, in --help order: verb -> module under npuready.commands.
COMMANDS: dict[str, str] = {
    "lint": "npuready.commands.lint",
    "probes": "npuready.commands.probes",
    "partition": "npuready.commands.partition",
    "cost": "npuready.commands.cost",
    "targets": "npuready.commands.targets",
    "train": "npuready.commands.train",
    "preprocess": "npuready.commands.preprocess",
    "quantize": "npuready.commands.quantize",
    "verify": "npuready.commands.verify",
    "intake": "npuready.commands.intake",
    "deploy": "npuready.commands.deploy",
    "run": "npuready.commands.run",
    "docs": "npuready.commands.docs",
    "site": "npuready.commands.site",
    "models": "npuready.commands.models",
    "report": "npuready.commands.report",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors: one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="npuready",
        description="Tell whether a vision model is ready for an NPU, what it will cost, and whether "
                    "its INT8 build still computes the same thing.",
        epilog="Exit codes: 0 ok, 1 the check failed (e.g. a lint ERROR or a parity gate), 2 unusable input. "
               "Run 'npuready VERB --help' for each verb.",
    )
    from npuready import __version__

    parser.add_argument("--version", action="version", version=f"npuready {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    for verb, module in COMMANDS.items():
        importlib.import_module(module).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"npuready {args.verb}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file the user named cannot be read or written: bad input, not a crash
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"npuready {args.verb}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"npuready {args.verb}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
