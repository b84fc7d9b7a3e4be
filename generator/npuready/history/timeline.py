"""The history document: every commit that changed a stored result, and each experiment's key figures at it.

Built from git alone (``git log``, ``git ls-tree``, ``git cat-file``): no network, no checkout. For every
commit that changed some ``experiments/*/result.json`` the tree is read, so the value an experiment shows
at a commit is exactly what that commit stored (side branches included, in topological order). Identical
result files are read once. An experiment "changed" at a commit when that commit
changed its result file against its first parent (for a merge: what the merge brought in); merges that
changed no result are left out. The site's History view reads this document (it recomputes nothing); when the
history cannot be read the document says why (``available: false``) and the view shows that sentence.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from npuready.history.figures import KeyFigure, figures_for
from npuready.history.gitrepo import GitRepo, HistoryUnavailable
from npuready.history.select import select

HISTORY_VERSION = 1
RESULTS_DIR = "experiments"
RESULT_FILE = "result.json"
RESULT_GLOB = f"{RESULTS_DIR}/*/{RESULT_FILE}"
ABSENT = None  # a figure whose pointer does not resolve at a commit (another layout, or not run yet)


def figure_value(doc: Mapping[str, Any] | None, fig: KeyFigure) -> Any:
    """The figure's value in a result document: a number, true/false, a word, or None when absent."""
    if doc is None:
        return ABSENT
    value = select(doc, fig.pointer, ABSENT)
    return value if isinstance(value, (int, float, str, bool)) or value is None else ABSENT


def parse_result(data: bytes | None) -> dict[str, Any] | None:
    """A stored result as a dict, or None when absent or unreadable at that commit."""
    if data is None:
        return None
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def experiment_id(path: str) -> str:
    return path.split("/")[-2]


def unavailable_doc(reason: str) -> dict[str, Any]:
    return {"version": HISTORY_VERSION, "available": False, "reason": reason, "commits": [], "experiments": {}}


def build_history(repo_root: Path, rev: str = "HEAD") -> dict[str, Any]:
    """The history document for the commits reachable from ``rev`` (``available: false`` + reason if none)."""
    git = GitRepo(repo_root)
    reason = git.unavailable()
    if reason:
        return unavailable_doc(reason)
    try:
        return _build(git, rev)
    except HistoryUnavailable as exc:
        return unavailable_doc(str(exc))


def _build(git: GitRepo, rev: str) -> dict[str, Any]:
    logged = [(c, names) for c, names in git.log([RESULT_GLOB], rev) if names]  # merges that changed none: out
    commits = [c for c, _ in logged]
    trees = [{experiment_id(p): blob for p, blob in git.tree_blobs(c.hash, RESULTS_DIR, RESULT_FILE).items()}
             for c in commits]
    ids = sorted({exp_id for tree in trees for exp_id in tree})
    experiments: dict[str, Any] = {}
    for exp_id in ids:
        blobs = [tree.get(exp_id) for tree in trees]
        docs = {b: parse_result(data) for b, data in git.read([b for b in blobs if b]).items()}
        latest = next((docs[b] for b in reversed(blobs) if b and docs[b] is not None), None)
        figures = figures_for(exp_id, latest)
        states: list[list[Any]] = []
        at: list[int | None] = []
        changed: list[int] = []
        for i, blob in enumerate(blobs):
            if blob is None:
                at.append(None)
                continue
            values = [figure_value(docs[blob], f) for f in figures]
            if values not in states:
                states.append(values)
            at.append(states.index(values))
            if f"{RESULTS_DIR}/{exp_id}/{RESULT_FILE}" in logged[i][1]:
                changed.append(i)
        experiments[exp_id] = {
            "title": str((latest or {}).get("title", exp_id)),
            "figures": [{"label": f.label, "pointer": f.pointer, "kind": f.kind} for f in figures],
            "states": states, "at": at, "changed": changed,
        }
    return {"version": HISTORY_VERSION, "available": True, "reason": None,
            "commits": [c.to_json() for c in commits], "experiments": experiments}
