"""The "reproducing every committed result" section of ``docs/scaling.md``, rendered from
``benchmarks/results/reproduce-all.json`` (``benchmarks/reproduce_all.py``); every number is read from it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from npuready.experiments.reproduction import runs

RESULT = Path("benchmarks") / "results" / "reproduce-all.json"

# Why a reproduction differed, found by reading the two documents (mechanisms only; no numbers).
CAUSES = {
    "realworld-corpus": "the model reports kept their own wall seconds inside `results` (a `timing` section per "
                        "model and `report_s` per row), so a rerun could never match; they now go to the timing "
                        "block and the committed result was re-run with that change.",
    "model-report-yolov8n": "the report's own `timing` section sat inside `results` (as in realworld-corpus), fixed "
                            "the same way; "
                            "the report also names the library-built model by its path in the model cache "
                            "(`$NPUREADY_CACHE/library/...`), which this run pointed at another folder: a path of "
                            "the machine, not an answer.",
    "bitexact-realworld": "the runner kept each architecture's wall seconds inside `results` (`per_model/models/*/"
                          "seconds`, the summary rows and the totals), so a rerun could never match; they now go to "
                          "the timing block only and the committed result was re-run with that change.",
    "pruning": "this run is the first of a changed spec: one torch thread per task instead of two (two tasks of two "
               "threads each, side by side on two workers, oversubscribed the two cores and ran slower than "
               "serial), and float sums change with the thread count, so it could not match the result committed "
               "for the old spec; serial and workers agree with each other, and the result committed since is of "
               "the new spec.",
    "lint-corpus": "the runner hashed the onnx wheel's test models as inputs only when the virtual environment sat "
                   "inside the repository; this run's did not, so those input keys were missing. The corpus is "
                   "named by the onnx version in the provenance; the runner no longer hashes it and the committed "
                   "result was re-run.",
}


def _t(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.1f} s"


def _verdict(part: dict[str, Any]) -> str:
    """A row's (or its serial run's) comparison with the committed result, in words."""
    if part.get("error"):
        return f"not run: {part['error']}"
    if part.get("identical"):
        return "identical"
    difference = part.get("first_difference") or ""
    if difference.startswith("/provenance/code") and "first_value_difference" in part:
        if part["first_value_difference"] is None:
            return "same values; older code fingerprint"
        return f"differs at `{part['first_value_difference']}`"
    if difference.startswith("/provenance/code/"):  # a record made before values were compared on their own
        changed = difference.removeprefix("/provenance/code/files/").replace("~1", "/").replace("~0", "~")
        return f"older code fingerprint (`{changed}` changed since); values not compared on their own"
    return f"differs at `{difference}`"


def _run_text(run: dict[str, Any], only: bool) -> str:
    which = "" if only else f"{', '.join(f'`{e}`' for e in run['experiments'])}: "
    return (f"{which}at commit `{(run['commit'] or '?')[:7]}`, cluster start {_t(run['cluster_start_s'])}, "
            f"{_t(run['total_wall_s'])} in all; load average (1/5/15 min) "
            f"{' / '.join(map(str, run['load_1_5_15_before']))} before and "
            f"{' / '.join(map(str, run['load_1_5_15_after']))} at its last experiment")


def load(root: Path) -> dict[str, Any] | None:
    path = root / RESULT
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def section(doc: dict[str, Any] | None, declared: list[str]) -> str:
    if doc is None:
        return ("## Reproducing every committed result\n\nNot measured yet: run `python "
                "benchmarks/reproduce_all.py` (writes " + str(RESULT) + ").\n")
    rows = doc["experiments"]
    ran = [r["experiment"] for r in rows]
    missing = [exp for exp in declared if exp not in ran]
    w = doc["workers"]
    table = "\n".join(
        f"| `{r['experiment']}` | {r.get('tasks', '-')} | {r.get('mode', '-')} | {_t(r['serial_wall_s'])} | "
        f"{_t(r['wall_s'])} | {r['serial_wall_s'] / r['wall_s']:.2f}x | "
        f"{'serial' if r.get('serial_first') else 'workers'} | "
        f"{r['load_1min_before']} -> {r['load_1min_after']} | "
        f"{_verdict(r['serial'])} | {_verdict(r)} | "
        f"{'identical' if r.get('serial_vs_workers_identical') else 'differ'} |" for r in rows)
    serial = sum(r["serial_wall_s"] for r in rows)
    here = sum(r["wall_s"] for r in rows)
    same = sum(bool(r.get("identical")) for r in rows)
    same_values = sum(bool(r.get("identical")) or "same values" in _verdict(r) for r in rows)
    twins = sum(bool(r.get("serial_vs_workers_identical")) for r in rows)
    stopped = (f"The run was stopped after {len(rows)} of {len(declared)} experiments (shortest first, by their "
               f"committed wall time); not reached: {', '.join(f'`{e}`' for e in missing)}." if missing else
               f"Every one of the {len(declared)} declared experiments ran.")
    differing = [r["experiment"] for r in rows if not r.get("identical") and "error" not in r
                 and "same values" not in _verdict(r)]
    causes = "\n".join(f"- `{exp}`: {CAUSES.get(exp, 'not yet explained.')}" for exp in differing)
    faster = "faster" if here < serial else "slower"
    big = [r for r in rows if r["serial_wall_s"] >= 60]
    big_serial, big_here = sum(r["serial_wall_s"] for r in big), sum(r["wall_s"] for r in big)
    m = doc["machine"]
    headers = runs(doc)
    runs_text = (": " + _run_text(headers[0], True) if len(headers) == 1 else
                 f" in {len(headers)} runs (a later run replaced the rows of the experiments it ran): "
                 + "; ".join(_run_text(h, False) for h in headers))
    head = (f"| experiment | tasks | ran as | serial | {w} workers | speed-up | first | load (1 min) "
            "| serial vs committed | workers vs committed | serial vs workers |")
    return f"""## Reproducing every committed result

<!-- generated from {RESULT} (benchmarks/reproduce_all.py); do not edit -->

`benchmarks/reproduce_all.py` does what `npuready run --all --serial --out A`, `npuready run --all --workers {w}
--out B` and `npuready run --all --compare A|B` do, in one process, experiment by experiment: each experiment runs
serially (one process, no Dask) and on one local Dask cluster of {w} workers, back to back (which goes first
alternates), into separate folders (the committed results are not touched); each `result.json` is compared with
the committed one and the two runs with each other, apart from the timing block and the commit they ran at
(`npuready.experiments.compare`; a difference is named by its first JSON pointer). **Measured** on this machine
({m['cpus']} CPUs){runs_text}. {stopped}

{head}
|---|---|---|---|---|---|---|---|---|---|---|
{table}

{same} of {len(rows)} identical to the committed result ({same_values} with the same values: the rest differ
only in the fingerprint of the code that produced the committed file); serial and {w} workers gave identical
results in {twins} of {len(rows)}. Over every experiment that ran, serial took {_t(serial)} and {w} workers
{_t(here)} ({serial / here:.2f}x): {faster} than serial here. Experiments of a minute or more serially
({len(big)}) went from {_t(big_serial)} to {_t(big_here)} ({big_serial / big_here:.2f}x); below that, starting
tasks on the cluster costs about what the second worker gains.

{'Why results differed:' if differing else ''}
{causes}
"""
