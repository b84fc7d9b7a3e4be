"""The "reproducing every committed result" section of ``docs/scaling.md``, rendered from
``benchmarks/results/reproduce-all.json`` (``benchmarks/reproduce_all.py``); every number is read from it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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


def _verdict(row: dict[str, Any]) -> str:
    if "error" in row:
        return f"not run: {row['error']}"
    if row["identical"]:
        return "identical"
    return f"differs at `{row['first_difference']}`"


def load(root: Path) -> dict[str, Any] | None:
    path = root / RESULT
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def section(doc: dict[str, Any] | None, declared: list[str]) -> str:
    if doc is None:
        return ("## Reproducing every committed result\n\nNot measured yet: run `nice -n 10 python "
                "benchmarks/reproduce_all.py` (writes " + str(RESULT) + ").\n")
    rows = doc["experiments"]
    ran = [r["experiment"] for r in rows]
    missing = [exp for exp in declared if exp not in ran]
    table = "\n".join(
        f"| `{r['experiment']}` | {r.get('tasks', '-')} | {r.get('mode', '-')} | {_t(r['serial_wall_s'])} | "
        f"{_t(r['wall_s'])} | {r['wall_s'] / r['serial_wall_s']:.1f}x | {r['load_1min_before']} -> "
        f"{r['load_1min_after']} | {_verdict(r)} |" for r in rows)
    serial = sum(r["serial_wall_s"] for r in rows)
    here = sum(r["wall_s"] for r in rows)
    same = sum(bool(r.get("identical")) for r in rows)
    stopped = (f"The run was stopped after {len(rows)} of {len(declared)} experiments (shortest first, by their "
               f"committed wall time); not reached: {', '.join(f'`{e}`' for e in missing)}." if missing else
               f"Every one of the {len(declared)} declared experiments ran.")
    differing = [r["experiment"] for r in rows if not r.get("identical") and "error" not in r]
    causes = "\n".join(f"- `{exp}`: {CAUSES.get(exp, 'not yet explained.')}" for exp in differing)
    faster = "faster" if here < serial else "slower"
    m = doc["machine"]
    return f"""## Reproducing every committed result

<!-- generated from {RESULT} (benchmarks/reproduce_all.py); do not edit -->

`benchmarks/reproduce_all.py` does what `npuready run --all --workers {doc['workers']} --out DIR` followed by
`npuready run --all --compare DIR` do, in one process: every experiment runs on one local Dask cluster of
{doc['workers']} workers into a separate folder (the committed results are not touched), and each `result.json` is
compared with the committed one apart from its timing block and the commit it ran at
(`npuready.experiments.compare`; a difference is named by its first JSON pointer). **Measured** at commit
`{(doc['commit'] or '?')[:7]}` on this machine ({m['cpus']} CPUs): cluster start {_t(doc['cluster_start_s'])},
{_t(doc['total_wall_s'])} in all; load average (1/5/15 min) {' / '.join(map(str, doc['load_1_5_15_before']))} before
and {' / '.join(map(str, doc['load_1_5_15_after']))} at the last experiment. {stopped}

| experiment | tasks | ran as | committed run (one process) | this run | this / committed | load (1 min) | result.json |
|---|---|---|---|---|---|---|---|
{table}

{same} of {len(rows)} identical. Over the experiments that ran, the committed runs took {_t(serial)} and this run
{_t(here)}: {faster} than serial here. The loads differed: the committed wall times were measured when each result
was produced, at other commits and under loads the results do not record, while this run shared the two CPUs with
other jobs (load above). The ratio therefore mixes what the workers gain with contention for the CPUs; the
controlled comparison of one process against {doc['workers']} workers is the measurement at the top of this page
(both in the same benchmark run).

{'Why results differed:' if differing else ''}
{causes}
"""
