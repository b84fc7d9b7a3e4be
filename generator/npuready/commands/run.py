"""`npuready run ID | --all | --list | --check [--workers N | --serial | --scheduler ADDR] [--resume] [--out DIR]
[--compare DIR]`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="run stored experiments and write experiments/<id>/result.json",
        description="Run declared experiments (experiments/<id>/spec.toml) and write exactly one "
                    "experiments/<id>/result.json each, atomically, validated against the result schema. "
                    "Every results section carries its evidence label (measured, analysis, simulated or "
                    "reference); timings sit in their own block. "
                    "An experiment whose runner splits it into tasks (model x target, model x recipe ...) runs "
                    "them on Dask: by default a local cluster with one worker process per CPU, started only when "
                    "an experiment has more than one task (one task runs in this process). Serial, local cluster "
                    "and remote scheduler give the same result.json apart from its timing block. A task that "
                    "raises is retried once, then listed under failed_tasks with its error; the other tasks' "
                    "results are kept. Finished tasks are cached ($NPUREADY_CACHE or ~/.cache/npuready/tasks).",
        epilog="Exit codes: 0 ok, 1 --check found stale results, --compare found a differing result or a task failed, "
               "2 unknown experiment, bad spec, no result to compare, or a --scheduler that does not answer. "
               "Workers need the sweep extra: pip install 'npuready[sweep]' (without it tasks run serially).")
    p.add_argument("ids", nargs="*", metavar="ID", help="experiment ids (see --list)")
    p.add_argument("--all", action="store_true", help="run every declared experiment")
    p.add_argument("--list", action="store_true", help="list declared experiments and exit")
    p.add_argument("--check", action="store_true",
                   help="check every result is fresh and valid: spec and input files unchanged, and no source file "
                        "its runner imports (transitively, within npuready) changed since it was produced")
    p.add_argument("--verbose", action="store_true", help="with --check: list every changed source file")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N", default=None,
                       help="local Dask cluster of N worker processes (default: one per CPU); 0 = no Dask")
    where.add_argument("--serial", action="store_true", help="run every task in this process (same as --workers 0)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="submit the tasks to an existing Dask scheduler (workers must import npuready and "
                            "see this repository at the same path)")
    p.add_argument("--connect-timeout", metavar="SECONDS", type=float, default=10.0,
                   help="with --scheduler: how long to wait for the scheduler to answer (default 10)")
    p.add_argument("--out", metavar="DIR", type=Path,
                   help="write DIR/<id>/result.json instead of experiments/<id>/result.json (a reproduction that "
                        "leaves the committed results alone)")
    p.add_argument("--compare", metavar="DIR", type=Path,
                   help="run nothing: compare DIR/<id>/result.json with the committed experiments/<id>/result.json "
                        "(apart from timing and the commit it ran at) and list identical / differs at a JSON pointer")
    p.add_argument("--resume", action="store_true",
                   help="reuse finished tasks from the task cache (same task, params, inputs and code)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.commands.output import check_result
    from npuready.errors import InputError
    from npuready.experiments.freshness import stale_experiments
    from npuready.experiments.run import TasksFailed, checked_spec, declared_ids, run_experiment, spec_for
    from npuready.experiments.sweep import Sweep, SweepOptions

    if args.list:
        for exp_id in declared_ids():
            spec = spec_for(exp_id)
            print(f"{exp_id}\t{spec.view}\t{spec.title}")
        return 0
    if args.check:
        from npuready.experiments.code_freshness import stale_code

        return check_result(stale_experiments() + stale_code(verbose=args.verbose),
                            f"all {len(declared_ids())} experiment results are fresh")
    ids = declared_ids() if args.all else args.ids
    if not ids:
        raise InputError("name at least one experiment id, or use --all / --list")
    if args.compare is not None:
        return _compare(args.compare, ids)
    if args.workers is not None and args.workers < 0:
        raise InputError(f"--workers {args.workers}: must be 0 (no Dask) or more")
    if args.scheduler and not args.scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise InputError(f"--scheduler {args.scheduler}: give the scheduler address as tcp://HOST:PORT")
    for exp_id in ids:
        checked_spec(exp_id)  # fail fast on unknown ids, paths and bad [params] before running anything
    workers = 0 if args.serial else args.workers
    if not 0 < args.connect_timeout < float("inf"):  # also refuses nan
        raise InputError(f"--connect-timeout {args.connect_timeout}: must be a finite number of seconds above 0")
    options = SweepOptions(workers=workers, scheduler=args.scheduler, resume=args.resume,
                           show_progress=True, connect_timeout_s=args.connect_timeout)
    status = 0
    with Sweep(options) as sweep:
        if args.scheduler:
            sweep.backend()  # reach the scheduler before running anything (one-task experiments run inline)
        for exp_id in ids:
            try:
                path = run_experiment(exp_id, show_progress=len(ids) == 1, sweep=sweep, out_dir=args.out)
            except TasksFailed as exc:
                print(f"{exp_id}: {exc}", file=sys.stderr)
                status = 1
                continue
            print(f"{exp_id}: wrote {path}")
            failed = _failed(path)
            if failed:
                print(f"{exp_id}: {len(failed)} task(s) failed and are listed under failed_tasks: "
                      f"{', '.join(failed)}", file=sys.stderr)
                status = 1
    return status


def _compare(reproduced: Path, ids: list[str]) -> int:
    from npuready.experiments.compare import compare_dirs
    from npuready.paths import experiments_dir

    rows = compare_dirs(experiments_dir(), reproduced, ids)
    for row in rows:
        print(f"{row.experiment}\t" + ("identical" if row.identical else f"differs at {row.first_difference}"
                                         + ("" if row.first_value_difference else
                                            " (same values: only the fingerprint of the code that produced it)")))
    same = sum(row.identical for row in rows)
    print(f"{same} of {len(rows)} result(s) identical apart from timing and the commit they ran at")
    return 0 if same == len(rows) else 1


def _failed(path) -> list[str]:
    import json

    return [f["task"] for f in json.loads(path.read_text(encoding="utf-8")).get("failed_tasks", [])]
