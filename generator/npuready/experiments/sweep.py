"""Where an experiment's tasks run: inline, serially, or on Dask; with the task cache and one progress bar.

- One task (a runner that does not split itself, or a split with one unit): run inline, no cluster.
- ``workers=0``: every task in this process, one after the other (no Dask).
- otherwise on Dask: a local cluster of ``workers`` processes (``None`` = one per CPU), started once on
  first need and shared by every experiment of the run, or an existing scheduler (``scheduler``).
  Without dask.distributed installed the tasks run serially and a note says how to enable workers.

Every way gives the same outcomes in the same (declared) order; a task that raises is retried once and
then comes back with its error. Finished tasks go to the cache; ``resume`` reuses them.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

from npuready.errors import InputError
from npuready.experiments.cache import TaskCache
from npuready.experiments.task import Job, Outcome, error_text
from npuready.experiments.threads import execute_pinned


@dataclass(frozen=True)
class SweepOptions:
    workers: int | None = 0
    scheduler: str | None = None
    resume: bool = False
    show_progress: bool = True
    connect_timeout_s: float = 10.0  # for --scheduler: reach it and hear it answer as a Dask scheduler


def _note(line: str) -> None:
    print(line, file=sys.stderr)


def run_serial(job: Job) -> Outcome:
    """One task in this process: retried once when it raises, then returned with its error."""
    error: BaseException | None = None
    for _attempt in range(2):
        try:
            return execute_pinned(job)
        except Exception as exc:  # a task fault: retry once, then record it
            error = exc
    assert error is not None
    return Outcome(key=job.task.key, error=error_text(error))


class Sweep:
    def __init__(self, options: SweepOptions = SweepOptions(), cache: TaskCache | None = None,
                 note: Callable[[str], None] = _note):
        self.options = options
        self.cache = cache if cache is not None else TaskCache()
        self.note = note
        self._backend = None
        self._serial_fallback = False
        self.last_mode = "inline"
        self.last_outcomes: list[Outcome] = []  # of the last run() (benchmarks read their seconds)

    def __enter__(self) -> "Sweep":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
            self._backend = None

    def backend(self):
        """The Dask backend, started on first need; None when tasks run in this process."""
        if self.options.workers == 0 and not self.options.scheduler:
            return None
        if self._backend is None and not self._serial_fallback:
            from npuready.experiments.dask_backend import INSTALL_HINT, DaskBackend, dask_available

            if not dask_available():
                if self.options.scheduler:
                    raise InputError(f"--scheduler {self.options.scheduler}: needs dask.distributed; "
                                     f"install it with {INSTALL_HINT}")
                self._serial_fallback = True
                self.note(f"dask.distributed is not installed: running tasks serially; "
                          f"enable workers with {INSTALL_HINT}")
                return None
            self._backend = DaskBackend(self.options.workers, self.options.scheduler, self.options.connect_timeout_s)
            where = self.options.scheduler or f"local cluster, {self._backend.workers} workers"
            self.note(f"dask: {where}; {self._backend.dashboard()}")
        return self._backend

    def run(self, experiment_id: str, jobs: list[Job]) -> list[Outcome]:
        """Outcomes of ``jobs`` in their order (cached ones first looked up when resuming)."""
        outcomes: dict[str, Outcome] = {}
        if self.options.resume:
            for job in jobs:
                hit = self.cache.get(job)
                if hit is not None:
                    outcomes[job.task.key] = hit
        todo = [job for job in jobs if job.task.key not in outcomes]
        if len(jobs) == 1 and todo:
            self.last_mode = "inline"
            self._finish(todo[0], run_serial(todo[0]), outcomes)
        elif todo:
            self._run_many(experiment_id, jobs, todo, outcomes)
        else:
            self.last_mode = "cache"
        self.last_outcomes = [outcomes[job.task.key] for job in jobs]
        return self.last_outcomes

    def _run_many(self, experiment_id: str, jobs: list[Job], todo: list[Job], outcomes: dict[str, Outcome]) -> None:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        backend = self.backend()
        self.last_mode = "serial" if backend is None else ("dask-scheduler" if self.options.scheduler else "dask-local")
        quiet = not (self.options.show_progress and sys.stderr.isatty())
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TextColumn("ETA"), TimeRemainingColumn(), disable=quiet, transient=True) as bar:
            task = bar.add_task(f"{experiment_id}: tasks", total=len(jobs), completed=len(jobs) - len(todo))

            def done(job: Job, outcome: Outcome) -> None:
                self._finish(job, outcome, outcomes)
                bar.advance(task)

            if backend is None:
                for job in todo:
                    done(job, run_serial(job))
            else:
                backend.run(todo, done)

    def _finish(self, job: Job, outcome: Outcome, outcomes: dict[str, Outcome]) -> None:
        if outcome.bad_input is not None:
            raise InputError(outcome.bad_input)
        self.cache.put(job, outcome)
        outcomes[job.task.key] = outcome
