"""Benchmark: an experiment sweep serially and on a 2-worker local Dask cluster, in the same run.

Goal: speed-up >= 1.6x on 2 cores (cluster start-up reported separately). Also measures the per-task cost
of the units a models x targets readiness sweep is made of (lint one model, partition + recompose one
model, cost one model on one target) and Dask's per-task overhead, and writes everything with the machine
load to ``benchmarks/results/sweep-scaling.json``; ``docs/scaling.md`` is generated from that file
(``npuready docs``). Run with ``make bench`` or ``python benchmarks/bench_sweep.py`` (several minutes:
the speed-up sweep is the whole ``preprocess-doctor`` experiment, twice).
"""
from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

from npuready.atomic import write_json
from npuready.experiments.identity import same_answers
from npuready.experiments.run import build_result, spec_for
from npuready.experiments.sweep import Sweep, SweepOptions
from npuready.paths import repo_root

SPEEDUP_EXPERIMENT = "preprocess-doctor"
UNIT_EXPERIMENTS = {"lint-corpus": "lint one model", "partitions": "partition one model (+ recompose)",
                    "cost-per-target": "cost one model on one target"}
OVERHEAD_EXPERIMENT = "cost-per-target"
RESULT = Path("benchmarks") / "results" / "sweep-scaling.json"


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _run(exp_id: str, sweep: Sweep) -> tuple[dict, float, list[float]]:
    start = time.perf_counter()
    doc = build_result(spec_for(exp_id), show_progress=False, sweep=sweep)
    return doc, time.perf_counter() - start, [o.seconds for o in sweep.last_outcomes]


def _stats(seconds: list[float]) -> dict:
    return {"tasks": len(seconds), "sum_s": round(sum(seconds), 4), "mean_s": round(statistics.fmean(seconds), 6),
            "median_s": round(statistics.median(seconds), 6), "max_s": round(max(seconds), 4)}


def measure(workers: int = 2) -> dict:
    out: dict = {"evidence": "measured", "workers": workers,
                 "machine": {"cpus": os.cpu_count(), "system": platform.system(), "python": platform.python_version(),
                             "load_1_5_15_before": _load()},
                 "packages": {"dask": version("dask"), "distributed": version("distributed")}}
    units = {}
    with Sweep(SweepOptions(workers=0, show_progress=False)) as serial, \
            Sweep(SweepOptions(workers=workers, show_progress=False), note=lambda line: None) as cluster:
        for exp_id, what in UNIT_EXPERIMENTS.items():
            _, wall, seconds = _run(exp_id, serial)
            units[exp_id] = {"unit": what, "wall_s": round(wall, 3), **_stats(seconds)}
        start = time.perf_counter()
        cluster.backend()
        startup = time.perf_counter() - start
        # serial, cluster, cluster, serial: a load that rises or falls during the benchmark weighs on both alike
        runs, docs, tasks_s = [], {}, []
        for mode in ("serial", "cluster", "cluster", "serial"):
            before = _load()
            doc, wall, seconds = _run(SPEEDUP_EXPERIMENT, serial if mode == "serial" else cluster)
            runs.append({"mode": mode, "wall_s": round(wall, 3), "load_1min_before": before[0],
                         "load_1min_after": _load()[0]})
            docs.setdefault(mode, doc)
            tasks_s = tasks_s or seconds
        overhead_serial_doc, overhead_serial_wall, _ = _run(OVERHEAD_EXPERIMENT, serial)
        overhead_doc, overhead_wall, _ = _run(OVERHEAD_EXPERIMENT, cluster)
    out["units"] = units
    serial_wall = statistics.fmean(r["wall_s"] for r in runs if r["mode"] == "serial")
    parallel_wall = statistics.fmean(r["wall_s"] for r in runs if r["mode"] == "cluster")
    serial_doc, parallel_doc = docs["serial"], docs["cluster"]
    dump = os.environ.get("NPUREADY_BENCH_DUMP")  # keep the documents for a byte-for-byte look
    if dump:
        for label, d in (("serial", serial_doc), ("parallel", parallel_doc)):
            write_json(Path(dump) / f"{SPEEDUP_EXPERIMENT}.{label}.json", d)
    n = len(overhead_doc["results"]["costs"]["rows"])
    out["speedup"] = {
        "experiment": SPEEDUP_EXPERIMENT, **_stats(tasks_s), "runs": runs,
        "serial_s": round(serial_wall, 3), "parallel_s": round(parallel_wall, 3),
        "cluster_start_s": round(startup, 3),
        "speedup": round(serial_wall / parallel_wall, 3),
        "speedup_with_cluster_start": round(serial_wall / (parallel_wall + startup), 3),
        "identical_apart_from_timing": same_answers(serial_doc, parallel_doc),
    }
    out["overhead"] = {
        "experiment": OVERHEAD_EXPERIMENT, "tasks": n, "serial_s": round(overhead_serial_wall, 4),
        "parallel_s": round(overhead_wall, 4),
        "per_task_s": round(max(0.0, overhead_wall - overhead_serial_wall / workers) / n, 6),
        "identical_apart_from_timing": same_answers(overhead_serial_doc, overhead_doc),
        "note": "wall time on the cluster beyond a perfect split of the serial time, per task: scheduling, "
                "transfer and the client's bookkeeping (cache write, progress) of tiny tasks",
    }
    out["machine"]["load_1_5_15_after"] = _load()
    return out


def test_sweep_speedup(benchmark):
    with tempfile.TemporaryDirectory() as cache:
        os.environ["NPUREADY_CACHE"] = cache
        doc = benchmark.pedantic(measure, rounds=1, iterations=1)
    write_json(repo_root() / RESULT, doc)
    benchmark.extra_info.update(doc["speedup"])
    assert doc["speedup"]["identical_apart_from_timing"] and doc["overhead"]["identical_apart_from_timing"]


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as cache:
        os.environ["NPUREADY_CACHE"] = cache
        result = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
    path = write_json(repo_root() / RESULT, result)
    print(f"wrote {path}: speed-up {result['speedup']['speedup']}x "
          f"({result['speedup']['serial_s']} s serial, {result['speedup']['parallel_s']} s on "
          f"{result['workers']} workers, +{result['speedup']['cluster_start_s']} s cluster start)")
