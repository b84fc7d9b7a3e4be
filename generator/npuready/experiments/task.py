"""The unit of work of an experiment, and running one unit anywhere (this process or a Dask worker).

A runner module either exposes ``run(ctx) -> dict`` (the whole experiment is one task), or splits itself:

- ``tasks(ctx) -> list[Task]``: its units of work (model x target, model x recipe ...), cheap, in a fixed order;
- ``run_task(ctx, args) -> object``: one unit; reads ``ctx.params`` and its own ``args``, records its inputs,
  tools, seeds and timings on ``ctx`` like a whole runner does; returns JSON-able data;
- ``merge(ctx, outputs) -> dict``: pure; ``outputs`` maps task key → output in the order ``tasks`` gave,
  without the keys of tasks that failed; returns the ``results`` object.

Every output is normalised to plain JSON on the machine that computed it, so the merge step sees the same
data whether the task ran inline, on a worker, or came from the task cache.
"""
from __future__ import annotations

import importlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.targets.load import recording_loads

WHOLE = "run"  # the key of the single task of a runner that does not split itself


@dataclass(frozen=True)
class Task:
    key: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to run one task (picklable; the worker imports the runner by name)."""

    experiment_id: str
    module: str
    params: Mapping[str, Any]
    repo: str
    task: Task
    show_progress: bool = False


@dataclass(frozen=True)
class Outcome:
    """What one task produced (plain JSON) and what it recorded; ``error`` set when it failed."""

    key: str
    output: Any = None
    inputs: Mapping[str, str] = field(default_factory=dict)
    tools: Mapping[str, str] = field(default_factory=dict)
    seeds: Mapping[str, int] = field(default_factory=dict)
    timings: Mapping[str, float] = field(default_factory=dict)
    error: str | None = None
    bad_input: str | None = None
    cached: bool = False
    seconds: float = 0.0  # wall time of the task where it ran (not part of any result)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "output": self.output, "inputs": dict(self.inputs), "tools": dict(self.tools),
                "seeds": dict(self.seeds), "timings": dict(self.timings)}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> "Outcome":
        return cls(key=doc["key"], output=doc["output"], inputs=doc["inputs"], tools=doc["tools"],
                   seeds=doc["seeds"], timings=doc["timings"], cached=True)


def is_split(module: Any) -> bool:
    return all(hasattr(module, name) for name in ("tasks", "run_task", "merge"))


def plan(module: Any, ctx: RunContext) -> list[Task]:
    """The runner's tasks (one ``WHOLE`` task when it does not split); keys must be unique."""
    if not is_split(module):
        return [Task(WHOLE)]
    tasks = list(module.tasks(ctx))
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise InputError(f"experiment '{ctx.experiment_id}': runner {module.__name__} declares duplicate task keys")
    return tasks


def merge(module: Any, ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    if not is_split(module):
        return outputs[WHOLE]
    return module.merge(ctx, outputs)


def run_inline(module: Any, ctx: RunContext) -> dict[str, Any]:
    """The whole runner in this process on one context (tests, notebooks): plan, every task, merge."""
    if not is_split(module):
        return module.run(ctx)
    return module.merge(ctx, {t.key: plain(module.run_task(ctx, dict(t.args))) for t in plan(module, ctx)})


def execute(job: Job) -> Outcome:
    """Run one task. A runner's InputError comes back as ``bad_input`` (bad input is not retried: the run
    stops with that message); any other exception propagates so the executor can retry it."""
    started = time.perf_counter()
    module = importlib.import_module(job.module)
    ctx = RunContext(experiment_id=job.experiment_id, params=dict(job.params), repo=Path(job.repo),
                     show_progress=job.show_progress)
    try:
        with recording_loads() as targets:
            output = module.run_task(ctx, dict(job.task.args)) if is_split(module) else module.run(ctx)
    except InputError as exc:
        return Outcome(key=job.task.key, bad_input=str(exc))
    for path in sorted(targets):  # target TOMLs are inputs: editing one makes the result stale
        ctx.input(path)
    return Outcome(key=job.task.key, output=plain(output), inputs=dict(ctx.inputs), tools=dict(ctx.tools),
                   seeds=dict(ctx.seeds), timings=dict(ctx.timings), seconds=time.perf_counter() - started)


def error_text(exc: BaseException) -> str:
    """How a failed task's error is recorded (same text serially and from a worker)."""
    return f"{type(exc).__name__}: {exc}"[:500]


def plain(value: Any) -> Any:
    """``value`` as plain JSON data (numpy scalars/arrays, sets, paths converted)."""
    return json.loads(json.dumps(value, default=_plain))


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")
