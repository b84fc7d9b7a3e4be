"""`npuready run ID | --all | --list | --check`: produce experiments/<id>/result.json."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="run stored experiments and write experiments/<id>/result.json",
        description="Run declared experiments (experiments/<id>/spec.toml) and write exactly one "
                    "experiments/<id>/result.json each, atomically, validated against the result schema. "
                    "Numbers are labelled measured or simulated; timings sit in their own block.",
        epilog="Exit codes: 0 ok, 1 --check found stale results, 2 unknown experiment or bad spec.")
    p.add_argument("ids", nargs="*", metavar="ID", help="experiment ids (see --list)")
    p.add_argument("--all", action="store_true", help="run every declared experiment")
    p.add_argument("--list", action="store_true", help="list declared experiments and exit")
    p.add_argument("--check", action="store_true", help="check every result is fresh (spec unchanged) and valid")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.commands.output import check_result
    from npuready.errors import InputError
    from npuready.experiments.freshness import stale_experiments
    from npuready.experiments.run import declared_ids, run_experiment, spec_for

    if args.list:
        for exp_id in declared_ids():
            spec = spec_for(exp_id)
            print(f"{exp_id}\t{spec.view}\t{spec.title}")
        return 0
    if args.check:
        return check_result(stale_experiments(), f"all {len(declared_ids())} experiment results are fresh")
    ids = declared_ids() if args.all else args.ids
    if not ids:
        raise InputError("name at least one experiment id, or use --all / --list")
    for exp_id in ids:
        spec_for(exp_id)  # fail fast on unknown ids before running anything
    from rich.progress import Progress

    with Progress(disable=not sys.stderr.isatty(), transient=True) as bar:
        task = bar.add_task("experiments", total=len(ids))
        for exp_id in ids:
            bar.update(task, description=f"running {exp_id}")
            path = run_experiment(exp_id, show_progress=len(ids) == 1)
            print(f"{exp_id}: wrote {path}")
            bar.advance(task)
    return 0
