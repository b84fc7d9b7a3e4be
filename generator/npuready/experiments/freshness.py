"""Is every stored result in step with its spec? (spec hash, schema, runner present)."""
from __future__ import annotations

import json
from pathlib import Path

from npuready.data.sha import sha256_file
from npuready.errors import InputError
from npuready.experiments.registry import runner_module
from npuready.experiments.run import declared_ids, spec_for
from npuready.experiments.schema import validate_result
from npuready.paths import experiments_dir, repo_root


def stale_experiments(root: Path | None = None) -> list[str]:
    """One line per problem; empty when every declared experiment has a fresh, valid result."""
    base = root or experiments_dir()
    repo = repo_root()
    problems = []
    for exp_id in declared_ids(base):
        spec = spec_for(exp_id, base)
        result_path = base / exp_id / "result.json"
        if runner_module(exp_id, spec.kind) is None:
            problems.append(f"{exp_id}: no runner registered")
        if not result_path.exists():
            problems.append(f"{exp_id}: no result.json; run 'npuready run {exp_id}'")
            continue
        try:
            doc = json.loads(result_path.read_text(encoding="utf-8"))
            validate_result(doc, str(result_path))
        except (ValueError, InputError) as exc:
            problems.append(f"{exp_id}: invalid result.json ({exc})")
            continue
        if doc.get("spec_sha256") != spec.sha256:
            problems.append(f"{exp_id}: spec.toml changed since result.json was produced; run 'npuready run {exp_id}'")
            continue
        for rel, digest in sorted(doc["provenance"]["inputs"].items()):
            path = Path(rel) if Path(rel).is_absolute() else repo / rel
            if rel.endswith("spec.toml") or not path.is_relative_to(repo):
                continue
            if not path.is_file():
                problems.append(f"{exp_id}: input {rel} is gone; run 'npuready run {exp_id}'")
            elif sha256_file(path) != digest:
                problems.append(f"{exp_id}: input {rel} changed since result.json was produced; "
                                f"run 'npuready run {exp_id}'")
                break
    return problems
