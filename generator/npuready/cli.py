"""The `npuready` command line: thin. Parses arguments and calls one function per verb.

Every verb lives in ``npuready/commands/<verb>.py`` with ``register(subparsers)`` which
adds its parser and sets ``func``; building the parser imports nothing heavy (names shown in help come
from ``npuready.commands.catalog``). Bad input (``InputError``) prints one line and exits 2; any other
exception prints one line naming it and exits 1, unless ``--debug`` asks for the traceback. Python warnings raised
while a verb runs (PIL's DecompressionBombWarning, onnx's) are collected: one line each after a run that exits
0 or 1, none after an exit 2, whose one line is the error.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import warnings

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
    "sensitivity": "npuready.commands.sensitivity",
    "intake": "npuready.commands.intake",
    "deploy": "npuready.commands.deploy",
    "export": "npuready.commands.export",
    "run": "npuready.commands.run",
    "diff": "npuready.commands.diff",
    "docs": "npuready.commands.docs",
    "site": "npuready.commands.site",
    "models": "npuready.commands.models",
    "report": "npuready.commands.report",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors: one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(verbs: "list[str] | None" = None) -> argparse.ArgumentParser:
    """The parser with every verb, or only ``verbs`` (``main`` registers just the verb it was given: one
    command module imported instead of all of them)."""
    parser = _Parser(
        prog="npuready",
        description="Tell whether a vision model is ready for an NPU, what it will cost, and whether "
                    "its INT8 build still computes the same thing.",
        epilog="Exit codes: 0 ok, 1 the check failed (e.g. a lint ERROR or a parity gate), 2 unusable input. "
               "Run 'npuready VERB --help' for each verb.",
    )
    from npuready.version import __version__

    parser.add_argument("--version", action="version", version=f"npuready {__version__}")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    for verb, module in COMMANDS.items():
        if verbs is None or verb in verbs:
            importlib.import_module(module).register(sub)
    _accept_debug_anywhere(sub)
    return parser


DEBUG_HELP = "on an internal error, show the Python traceback instead of one line"


def _accept_debug_anywhere(sub: argparse._SubParsersAction) -> None:
    """``--debug`` also after the verb (and its actions), where a user appends it to a failed command."""
    for parser in set(sub.choices.values()):
        parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _accept_debug_anywhere(action)


_CONTROL = {c: repr(chr(c))[1:-1] for c in (*range(0x20), 0x7f)}  # a name's ESC, BEL, NUL shown as escapes


def _one_line(exc: BaseException) -> str:
    """``Type: message`` on one line: whitespace runs (newlines included) collapse, control characters are escaped."""
    text = " ".join(str(exc).split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _verb(argv: list[str]) -> str | None:
    """The verb ``argv`` names (its first word that is no option), when it is one of ``COMMANDS``."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return word if word in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    verb = _verb(argv)
    parser = build_parser(None if verb is None else [verb])
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    with warnings.catch_warnings(record=True) as caught:  # a library's warnings never add lines to an exit 2
        code = _call(args)
    if code != 2:
        for line in dict.fromkeys(_one_line(w.message if isinstance(w.message, Warning) else w.category(w.message))
                                  for w in caught):
            print(f"npuready {args.verb}: warning: {line}", file=sys.stderr)
    return code


def _call(args: argparse.Namespace) -> int:
    """Run the verb; its exit code (an exception that reached here: one line, see ``_describe``)."""
    try:
        from npuready.commands.output import check_outputs

        check_outputs(args)  # an output file that is a device, FIFO or folder: refused before the work
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(f"npuready {args.verb}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error
        return 0
    except Exception as exc:
        if args.debug:
            raise
        code, line = _describe(exc)
        print(f"npuready {args.verb}: {line}", file=sys.stderr)
        return code


def _describe(exc: Exception) -> tuple[int, str]:
    """Exit code and the one line for an exception that reached the top."""
    if isinstance(exc, InputError):
        return 2, f"error: {exc}"
    if isinstance(exc, OSError):  # a file the user named cannot be read or written: bad input, not a crash
        where = f"{exc.filename}: " if exc.filename else ""
        return 2, " ".join(f"error: {where}{exc.strerror or exc}".split()).translate(_CONTROL)
    if isinstance(exc, ValueError) and str(exc) == "embedded null byte":  # os.stat/open of a path with NUL in it
        return 2, "error: a path given holds a NUL byte, which no file name can contain; remove it"
    return 1, f"internal error: {_one_line(exc)} (rerun with --debug for the traceback)"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
