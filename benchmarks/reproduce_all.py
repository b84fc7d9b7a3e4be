"""Reproduce every committed experiment result on a local Dask cluster and compare, experiment by experiment.

What ``npuready run --all --workers N --out DIR`` then ``npuready run --all --compare DIR`` do, in one process,
with the wall time of each experiment and the machine load around it. Writes
``benchmarks/results/reproduce-all.json`` after every experiment (a run cut short keeps what finished);
``docs/scaling.md`` renders it (``npuready docs``). The committed results' own ``timing.total_s`` is the
serial reference (those runs were serial: one process, no Dask), measured at other times under other loads.

Takes long (the sum of every experiment's serial time, divided by what the workers gain); run it on its own:
``nice -n 10 python benchmarks/reproduce_all.py [--workers 2] [--out DIR] [--result PATH]``.
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


def reproduce(workers: int, out_dir: Path, result: Path, ids: list[str]) -> dict:
    doc = {"evidence": "measured", "workers": workers,
           "command": f"npuready run --all --workers {workers} --out DIR; npuready run --all --compare DIR",
           "commit": _head(repo_root()),
           "machine": {"cpus": os.cpu_count(), "system": platform.system(), "python": platform.python_version()},
           "load_1_5_15_before": _load(), "experiments": [], "complete": False}
    started = time.perf_counter()
    with Sweep(SweepOptions(workers=workers, show_progress=False)) as sweep:
        sweep.backend()  # started once here, shared by every experiment (counted in total_wall_s only)
        doc["cluster_start_s"] = round(time.perf_counter() - started, 3)
        for exp_id in ids:
            committed = _committed(exp_id)
            row = {"experiment": exp_id, "load_1min_before": _load()[0],
                   "serial_wall_s": committed["timing"]["total_s"],
                   "serial_mode": (committed["timing"].get("execution") or {}).get("mode", "serial")}
            t0 = time.perf_counter()
            try:
                path = run_experiment(exp_id, show_progress=False, sweep=sweep, out_dir=out_dir)
            except (InputError, TasksFailed) as exc:
                row.update(wall_s=round(time.perf_counter() - t0, 3), error=str(exc), identical=False,
                           first_difference=None)
            else:
                reproduced = json.loads(path.read_text(encoding="utf-8"))
                row.update(wall_s=round(time.perf_counter() - t0, 3),
                           tasks=reproduced["timing"]["execution"]["tasks"],
                           mode=reproduced["timing"]["execution"]["mode"],
                           failed_tasks=[f["task"] for f in reproduced.get("failed_tasks", [])],
                           **{k: v for k, v in compare_docs(exp_id, committed, reproduced).to_dict().items()
                              if k != "experiment"})
            row["load_1min_after"] = _load()[0]
            doc["experiments"].append(row)
            doc["total_wall_s"] = round(time.perf_counter() - started, 3)
            doc["load_1_5_15_after"] = _load()
            write_json(result, doc)
            print(f"{exp_id}: {row['wall_s']} s (serial {row['serial_wall_s']} s), "
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
    p.add_argument("ids", nargs="*", help="experiments (default: every declared one)")
    args = p.parse_args(argv)
    result = args.result or repo_root() / RESULT
    out = args.out or Path(tempfile.mkdtemp(prefix="npuready-reproduce-"))
    reproduce(args.workers, out, result, shortest_first(args.ids or declared_ids()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
