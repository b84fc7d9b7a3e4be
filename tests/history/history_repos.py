"""Small git repositories with stored results, built in a temporary folder (commits with fixed dates)."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **ENV}).stdout.strip()


def result(exp_id: str, summary: dict, kind: str = "") -> dict:
    return {"id": exp_id, "title": f"title of {exp_id}", "spec": {"kind": kind} if kind else {},
            "results": {"summary": {"evidence": "measured", **summary}}}


def commit(repo: Path, subject: str, day: int, files: dict[str, dict | None]) -> str:
    for rel, doc in files.items():
        path = repo / rel
        if doc is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc), encoding="utf-8")
    git(repo, "add", "-A")
    date = f"2026-01-{day:02d}T12:00:00+00:00"
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", subject], check=True,
                   env={**os.environ, **ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
    return git(repo, "rev-parse", "HEAD")


def probes_repo(root: Path) -> tuple[Path, list[str]]:
    """Four commits: probes 50/50 accepted, an unrelated file, 52/51, then a model report added.
    Returns the repository and the four hashes."""
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    p = "experiments/probes/result.json"

    def probes(n: int, ok: int) -> dict:
        doc = result("probes", {})
        doc["results"] = {"probes": {"evidence": "measured",
                                     "summary": {"probes": n, "accepted": ok, "failed": n - ok}}}
        return doc

    hashes = [
        commit(repo, "probes stored", 1, {p: probes(50, 50)}),
        commit(repo, "a readme", 2, {"README.md": {"not": "a result"}}),
        commit(repo, "probes rerun", 3, {p: probes(52, 51)}),
        commit(repo, "a model report", 4, {"experiments/mr-x/result.json":
                                           result("mr-x", {}, kind="model-report") | {
                                               "results": {"checks": {"evidence": "analysis", "all_ok": True}}}}),
    ]
    return repo, hashes
