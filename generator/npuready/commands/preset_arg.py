"""``--preset NAME|spec.json``: the one preprocessing option every verb that turns images into inputs takes.

``add_preset_arg(parser, purpose)`` adds it (``deploy`` keeps its older spelling ``--preprocess`` as an
alias, ``preprocess`` its ``--spec``); ``preset_from(args)`` resolves it with
``npuready.preprocess.resolve_spec`` - a preset name, ``zoo:<model>`` or a spec JSON file checked against
its schema - and is called first thing in each verb's ``run``, so a bad value is refused (exit 2, one
line) before any model is loaded or analysed.
"""
from __future__ import annotations

import argparse

PRESET_HELP = ("preprocessing: a preset name (list them with 'npuready preprocess show'), zoo:<model> "
               "or a spec JSON file")


def add_preset_arg(parser: argparse.ArgumentParser, purpose: str, *aliases: str, dest: str = "preset") -> None:
    parser.add_argument("--preset", *aliases, dest=dest, metavar="NAME|spec.json", help=f"{PRESET_HELP}; {purpose}")


def preset_from(args: argparse.Namespace, dest: str = "preset"):
    """The ``PreprocessSpec`` the option names, or None when it was not given (InputError when it is bad)."""
    text = getattr(args, dest, None)
    if text is None:
        return None
    from npuready.errors import InputError
    from npuready.preprocess.resolve import resolve_spec

    if not str(text).strip():
        raise InputError("--preset: empty; give a preset name, zoo:<model> or a spec JSON file")
    return resolve_spec(text)
