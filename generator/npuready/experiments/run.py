"""Run declared experiments: spec → runner → ``experiments/<id>/result.json`` (atomic, validated)."""
from __future__ import annotations

import importlib
import json
import time
from pathlib import Path
from typing import Any

from npuready.atomic import write_json
from npuready.errors import InputError
from npuready.experiments import provenance
from npuready.experiments.context import RunContext
from npuready.experiments.registry import runner_module
from npuready.experiments.schema import SCHEMA_VERSION, validate_result
from npuready.experiments.spec import ExperimentSpec, load_spec
from npuready.paths import experiments_dir, repo_root
from npuready.targets.load import recording_loads


def declared_ids(root: Path | None = None) -> list[str]:
    base = root or experiments_dir()
    return sorted(p.parent.name for p in base.glob("*/spec.toml"))


def spec_for(exp_id: str, root: Path | None = None) -> ExperimentSpec:
    base = root or experiments_dir()
    path = base / exp_id / "spec.toml"
    if not path.exists():
        known = ", ".join(declared_ids(base)) or "none"
        raise InputError(f"unknown experiment '{exp_id}' (no {path}); declared: {known}")
    return load_spec(path)


def build_result(spec: ExperimentSpec, show_progress: bool = True) -> dict[str, Any]:
    runner = runner_module(spec.id, spec.kind)
    if runner is None:
        raise InputError(f"experiment '{spec.id}' has a spec but no runner in npuready/experiments/registry.py")
    module = importlib.import_module(runner)
    repo = repo_root()
    ctx = RunContext(experiment_id=spec.id, params=dict(spec.params), repo=repo, show_progress=show_progress)
    if spec.path is not None:
        ctx.input(spec.path)
    started = time.perf_counter()
    with recording_loads() as targets:  # target TOMLs are inputs: editing one makes the result stale
        results = module.run(ctx)
    elapsed = time.perf_counter() - started
    for path in sorted(targets):
        ctx.input(path)
    timing = {"evidence": "measured", "total_s": round(elapsed, 3), **ctx.timings}
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
        },
        "results": json.loads(json.dumps(results, default=_plain)),
        "timing": timing,
    }
    validate_result(doc, f"experiment '{spec.id}'")
    return doc


def run_experiment(exp_id: str, show_progress: bool = True) -> Path:
    spec = spec_for(exp_id)
    doc = build_result(spec, show_progress=show_progress)
    return write_json(experiments_dir() / exp_id / "result.json", doc)


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
