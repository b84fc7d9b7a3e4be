"""The history document: every commit that changed a stored result, and each experiment's key figures at it.

Built from git alone (``git log``, ``git ls-tree``, ``git cat-file``): no network, no checkout. For every
commit that changed some ``experiments/*/result.json`` the tree is read, so the value an experiment shows
at a commit is exactly what that commit stored (side branches included, in topological order). Identical
result files are read once. An experiment "changed" at a commit when that commit
changed its result file against its first parent (for a merge: what the merge brought in); merges that
changed no result are left out. A result file a commit stored but that cannot be read (invalid or too deeply
nested JSON, too large) counts as absent at that commit and is listed under ``skipped`` with the reason. The
site's History view reads this document (it recomputes nothing); when the history cannot be read the document
says why (``available: false``) and the view shows that sentence.
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


def read_result(data: bytes | None) -> tuple[dict[str, Any] | None, str | None]:
    """A stored result as ``(dict, None)``; ``(None, None)`` when absent; ``(None, why)`` when a commit stored
    something unreadable (not UTF-8 JSON, above budget.MAX_RESULT_BYTES, nested deeper than
    budget.MAX_NESTING, not an object). Never raises: one bad historical file must not break the history."""
    from npuready.errors import InputError
    from npuready.inputs import budget
    from npuready.nesting import parsed

    if data is None:
        return None, None
    if len(data) > budget.MAX_RESULT_BYTES:
        return None, f"{len(data):,} bytes, above the {budget.MAX_RESULT_BYTES:,}-byte budget"
    try:
        doc = parsed(lambda: json.loads(data), "result.json")
    except InputError as exc:
        return None, str(exc).removeprefix("result.json: ")
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        return None, f"not valid JSON ({' '.join(str(exc).split())})"
    if not isinstance(doc, dict):
        return None, f"top level is {type(doc).__name__}, not an object"
    return doc, None


def parse_result(data: bytes | None) -> dict[str, Any] | None:
    """A stored result as a dict, or None when absent or unreadable at that commit."""
    return read_result(data)[0]


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
    skipped: list[dict[str, str]] = []
    for exp_id in ids:
        blobs = [tree.get(exp_id) for tree in trees]
        read = {b: read_result(data) for b, data in git.read([b for b in blobs if b]).items()}
        docs = {b: doc for b, (doc, _) in read.items()}
        for i, blob in enumerate(blobs):
            why = read.get(blob, (None, None))[1] if blob else None
            if why and (i == 0 or blobs[i - 1] != blob):  # noted once, at the commit that stored it
                skipped.append({"experiment": exp_id, "commit": commits[i].short, "reason": why})
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
    doc = {"version": HISTORY_VERSION, "available": True, "reason": None,
           "commits": [c.to_json() for c in commits], "experiments": experiments}
    if skipped:  # only then: a clean history's document stays as it was
        doc["skipped"] = skipped
    return doc
