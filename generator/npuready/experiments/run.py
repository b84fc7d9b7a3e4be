"""Run declared experiments: spec → runner → ``experiments/<id>/result.json`` (atomic, validated)."""
from __future__ import annotations

import importlib
import time
from pathlib import Path
from typing import Any

from npuready.atomic import write_json
from npuready.errors import InputError
from npuready.experiments import provenance
from npuready.experiments.context import RunContext
from npuready.experiments.params import check_id, check_params
from npuready.experiments.registry import runner_module
from npuready.experiments.schema import SCHEMA_VERSION, validate_result
from npuready.experiments.sweep import Sweep, SweepOptions
from npuready.experiments.task import Job, merge, plain, plan
from npuready.experiments.spec import ExperimentSpec, load_spec
from npuready.paths import experiments_dir, repo_root
from npuready.targets.load import recording_loads


def declared_ids(root: Path | None = None) -> list[str]:
    base = root or experiments_dir()
    return sorted(p.parent.name for p in base.glob("*/spec.toml"))


def spec_for(exp_id: str, root: Path | None = None) -> ExperimentSpec:
    """The spec of ``experiments/<exp_id>/``: an id, never a path (absolute or ``../`` is refused)."""
    check_id(exp_id)
    base = root or experiments_dir()
    path = base / exp_id / "spec.toml"
    if not path.exists():
        known = ", ".join(declared_ids(base)) or "none"
        raise InputError(f"unknown experiment '{exp_id}' (no {path}); declared: {known}")
    return load_spec(path)


def checked_spec(exp_id: str, root: Path | None = None) -> ExperimentSpec:
    """``spec_for`` plus its ``[params]`` validated against the runner's schema and paths (InputError)."""
    spec = spec_for(exp_id, root)
    check_params(spec.id, spec.params, runner_module(spec.id, spec.kind), repo_root(), str(spec.path))
    return spec


def build_result(spec: ExperimentSpec, show_progress: bool = True, sweep: Sweep | None = None) -> dict[str, Any]:
    """Plan the runner's tasks, run them (``sweep``; default: in this process, no Dask), merge, validate.

    A task that failed twice is listed under ``failed_tasks`` and left out of the merge; a run in which
    every task failed raises ``TasksFailed``."""
    runner = runner_module(spec.id, spec.kind)
    if runner is None:
        raise InputError(f"experiment '{spec.id}' has a spec but no runner in npuready/experiments/registry.py")
    check_params(spec.id, spec.params, runner, repo_root(), str(spec.path or f"experiment '{spec.id}'"))
    module = importlib.import_module(runner)
    code = provenance.code(runner)  # the source files it imports, hashed before anything runs
    repo = repo_root()
    ctx = RunContext(experiment_id=spec.id, params=dict(spec.params), repo=repo, show_progress=show_progress)
    if spec.path is not None:
        ctx.input(spec.path)
    own = sweep or Sweep(SweepOptions(workers=0, show_progress=show_progress))
    started = time.perf_counter()
    with recording_loads() as planned:  # target TOMLs are inputs: editing one makes the result stale
        jobs = [Job(spec.id, runner, dict(spec.params), str(repo), t, show_progress=show_progress)
                for t in plan(module, ctx)]
    outcomes = own.run(spec.id, jobs)  # each task records the targets it loads itself
    done = {o.key: o for o in outcomes if o.error is None}
    if outcomes and not done:
        first = outcomes[0]
        raise TasksFailed(f"experiment '{spec.id}': all {len(outcomes)} task(s) failed; "
                          f"first: {first.key}: {first.error}")
    for o in done.values():
        ctx.inputs.update(o.inputs)
        ctx.tools.update(o.tools)
        ctx.seeds.update(o.seeds)
        ctx.timings.update(o.timings)
    with recording_loads() as merged:
        results = merge(module, ctx, {key: o.output for key, o in done.items()})
    elapsed = time.perf_counter() - started
    for path in sorted(planned | merged):
        ctx.input(path)
    execution = {"mode": own.last_mode, "tasks": len(outcomes), "from_cache": sum(o.cached for o in outcomes)}
    timing = {"evidence": "measured", "total_s": round(elapsed, 3), **ctx.timings, "execution": execution}
    doc = {
        "schema_version": SCHEMA_VERSION,
        "id": spec.id,
        "title": spec.title,
        "summary": spec.summary,
        "view": spec.view,
        "spec": spec.to_dict(),
        "spec_sha256": spec.sha256,
        "provenance": {
            "git": provenance.git_commit(repo),
            "packages": provenance.package_versions(),
            "tools": dict(sorted(ctx.tools.items())),
            "inputs": dict(sorted(ctx.inputs.items())),
            "machine": provenance.machine(),
            "seeds": dict(sorted(ctx.seeds.items())),
            "code": code,
        },
        "results": plain(results),
        "timing": timing,
    }
    failed = [{"task": o.key, "error": o.error, "attempts": 2} for o in outcomes if o.error is not None]
    if failed:
        doc["failed_tasks"] = failed
    validate_result(doc, f"experiment '{spec.id}'")
    return doc


def run_experiment(exp_id: str, show_progress: bool = True, sweep: Sweep | None = None,
                   out_dir: Path | None = None) -> Path:
    """Run one experiment and write its ``result.json`` under ``experiments/<id>/`` (or ``out_dir/<id>/``:
    a reproduction that leaves the committed results alone)."""
    spec = checked_spec(exp_id)
    doc = build_result(spec, show_progress=show_progress, sweep=sweep)
    return write_json((out_dir or experiments_dir()) / exp_id / "result.json", doc)


class TasksFailed(RuntimeError):
    """Every task of an experiment failed: there is nothing to merge."""
