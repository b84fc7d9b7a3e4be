"""Reproduce every committed experiment result on a local Dask cluster and compare, experiment by experiment.

What ``npuready run --all --serial --out A``, ``npuready run --all --workers N --out B`` and
``npuready run --all --compare A|B`` do, in one process, experiment by experiment: each experiment runs first
serially (one process, no Dask) and then on the local Dask cluster, back to back, so both wall times are measured
under the same conditions; each reproduced ``result.json`` is compared with the committed one and the two runs
with each other (apart from timing fields). Writes ``benchmarks/results/reproduce-all.json`` after every
experiment (a run cut short keeps what finished); ``docs/scaling.md`` renders it (``npuready docs``).

Takes long (every experiment twice); run it alone on an otherwise idle machine:
``python benchmarks/reproduce_all.py [--workers 2] [--out DIR] [--result PATH] [IDS...]``.
A later run of a few experiments (``--result OTHER.json IDS``) is folded into the record with
``python benchmarks/reproduce_all.py --merge OTHER.json [IDS...]``: its rows (or just those of IDS) replace those
experiments' rows, and the record keeps every run's header (``npuready.experiments.reproduction``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from npuready.atomic import write_json
from npuready.errors import InputError
from npuready.experiments.compare import compare_docs
from npuready.experiments.reproduction import merge
from npuready.experiments.run import TasksFailed, declared_ids, run_experiment
from npuready.experiments.sweep import Sweep, SweepOptions
from npuready.paths import experiments_dir, repo_root

RESULT = Path("benchmarks") / "results" / "reproduce-all.json"


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _head(repo: Path) -> str | None:
    out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True)
    return out.stdout.strip() or None


def _committed(exp_id: str) -> dict:
    return json.loads((experiments_dir() / exp_id / "result.json").read_text(encoding="utf-8"))


def shortest_first(ids: list[str]) -> list[str]:
    """By the committed serial time: a run cut short has then compared as many experiments as it could."""
    return sorted(ids, key=lambda exp_id: (_committed(exp_id)["timing"]["total_s"], exp_id))


def _run(exp_id: str, sweep: Sweep | None, out_dir: Path, committed: dict) -> tuple[dict, dict | None]:
    """(the row's fields, the reproduced document or None when the run stopped)."""
    t0 = time.perf_counter()
    try:
        path = run_experiment(exp_id, show_progress=False, sweep=sweep, out_dir=out_dir)
    except (InputError, TasksFailed) as exc:
        return {"wall_s": round(time.perf_counter() - t0, 3), "error": str(exc), "identical": False,
                "first_difference": None}, None
    reproduced = json.loads(path.read_text(encoding="utf-8"))
    return {"wall_s": round(time.perf_counter() - t0, 3),
            "tasks": reproduced["timing"]["execution"]["tasks"],
            "mode": reproduced["timing"]["execution"]["mode"],
            "failed_tasks": [f["task"] for f in reproduced.get("failed_tasks", [])],
            **{k: v for k, v in compare_docs(exp_id, committed, reproduced).to_dict().items()
               if k != "experiment"}}, reproduced


def reproduce(workers: int, out_dir: Path, result: Path, ids: list[str]) -> dict:
    doc = {"evidence": "measured", "workers": workers,
           "command": (f"npuready run --all --serial --out A; npuready run --all --workers {workers} --out B; "
                       "npuready run --all --compare A|B"),
           "commit": _head(repo_root()),
           "machine": {"cpus": os.cpu_count(), "system": platform.system(), "python": platform.python_version()},
           "load_1_5_15_before": _load(), "experiments": [], "complete": False}
    started = time.perf_counter()
    with Sweep(SweepOptions(workers=workers, show_progress=False)) as sweep:
        sweep.backend()  # started once here, shared by every experiment (counted in total_wall_s only)
        doc["cluster_start_s"] = round(time.perf_counter() - started, 3)
        for index, exp_id in enumerate(ids):
            committed = _committed(exp_id)
            row = {"experiment": exp_id, "load_1min_before": _load()[0],
                   "committed_wall_s": committed["timing"]["total_s"]}
            # alternate which goes first, so neither always pays the first imports or a warm cache
            row["serial_first"] = index % 2 == 0
            modes = {"serial": (None, out_dir / "serial"), "workers": (sweep, out_dir / f"workers-{workers}")}
            runs = {mode: _run(exp_id, modes[mode][0], modes[mode][1], committed)
                    for mode in (("serial", "workers") if row["serial_first"] else ("workers", "serial"))}
            (serial, serial_doc), (here, workers_doc) = runs["serial"], runs["workers"]
            row["serial"] = {k: serial[k] for k in ("wall_s", "identical", "first_difference",
                                                    "first_value_difference", "error")
                             if k in serial}
            row["serial_wall_s"] = serial["wall_s"]
            row.update(here)
            if serial_doc is not None and workers_doc is not None:
                same = compare_docs(exp_id, serial_doc, workers_doc)
                row["serial_vs_workers_identical"] = same.identical
                row["serial_vs_workers_first_difference"] = same.first_difference
            row["load_1min_after"] = _load()[0]
            doc["experiments"].append(row)
            doc["total_wall_s"] = round(time.perf_counter() - started, 3)
            doc["load_1_5_15_after"] = _load()
            write_json(result, doc)
            print(f"{exp_id}: {row['wall_s']} s (serial {row['serial_wall_s']} s here), "
                  + ("identical" if row["identical"] else f"differs at {row.get('first_difference')}"
                     + (f" / error: {row['error']}" if "error" in row else "")), file=sys.stderr, flush=True)
    doc["complete"] = len(doc["experiments"]) == len(ids)
    write_json(result, doc)
    return doc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=None, help="where the reproduced results go (default: a temp dir)")
    p.add_argument("--result", type=Path, default=None, help=f"default: {RESULT}")
    p.add_argument("--merge", type=Path, default=None,
                   help="fold this later run's record into the result (its rows replace those experiments' rows); "
                        "runs nothing")
    p.add_argument("ids", nargs="*", help="experiments (default: every declared one)")
    args = p.parse_args(argv)
    result = args.result or repo_root() / RESULT
    if args.merge is not None:
        later = json.loads(args.merge.read_text(encoding="utf-8"))
        write_json(result, merge(json.loads(result.read_text(encoding="utf-8")), later, args.ids or None))
        return 0
    out = args.out or Path(tempfile.mkdtemp(prefix="npuready-reproduce-"))
    reproduce(args.workers, out, result, shortest_first(args.ids or declared_ids()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
