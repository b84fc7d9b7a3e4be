"""What changed in the stored results between two commits: every experiment's key figures, side by side.

The same reading as the history document (``timeline.py``): the result files each commit stored, read
from git, the key figures of ``figures.py``. A figure is ``changed`` when its value differs, ``added``
or ``removed`` when it resolves at only one side; ``delta`` is B - A for two numbers (not true/false).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npuready.errors import InputError
from npuready.history.figures import figures_for
from npuready.history.gitrepo import Commit, GitRepo, HistoryUnavailable
from npuready.history.timeline import RESULT_FILE, RESULTS_DIR, experiment_id, figure_value, read_result


@dataclass(frozen=True)
class FigureChange:
    experiment: str
    label: str
    pointer: str
    kind: str
    a: Any
    b: Any
    status: str  # "same" | "changed" | "added" | "removed" | "absent"

    @property
    def delta(self) -> float | int | None:
        if not (_numeric(self.a) and _numeric(self.b)):
            return None
        d = self.b - self.a
        return d if isinstance(d, int) else float(f"{d:.12g}")  # no float noise (0.1 + 0.2) in the output

    def to_json(self) -> dict[str, Any]:
        return {"experiment": self.experiment, "label": self.label, "pointer": self.pointer, "kind": self.kind,
                "a": self.a, "b": self.b, "delta": self.delta, "status": self.status}


@dataclass(frozen=True)
class ResultDiff:
    a: Commit
    b: Commit
    changes: tuple[FigureChange, ...]
    results_changed: tuple[str, ...]  # experiments whose result.json differs (key figures moved or not)
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    skipped: tuple[str, ...] = ()  # "<id> at A: why" for a stored result that could not be read (counted absent)

    def moved(self) -> list[FigureChange]:
        return [c for c in self.changes if c.status not in ("same", "absent")]

    def to_json(self, everything: bool = False) -> dict[str, Any]:
        rows = self.changes if everything else self.moved()
        return {"a": self.a.to_json(), "b": self.b.to_json(), "results_changed": list(self.results_changed),
                "only_a": list(self.only_a), "only_b": list(self.only_b), "skipped": list(self.skipped),
                "figures": [c.to_json() for c in rows]}


def _numeric(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _status(a: Any, b: Any) -> str:
    if a is None and b is None:
        return "absent"
    if a is None:
        return "added"
    if b is None:
        return "removed"
    same = a == b and isinstance(a, bool) == isinstance(b, bool)  # True == 1 in Python, not here
    return "same" if same else "changed"


def _commit(git: GitRepo, rev: str, label: str) -> Commit:
    full = git.resolve(rev, label)
    return git.log_one(full)


def diff_revisions(repo_root: Path, rev_a: str, rev_b: str) -> ResultDiff:
    """Key figures of every stored result at ``rev_a`` and at ``rev_b``. InputError for a bad revision or
    when the repository's history cannot be read (the message says why)."""
    git = GitRepo(repo_root)
    reason = git.missing()
    if reason:
        raise InputError(f"cannot compare stored results: {reason}")
    try:
        a, b = _commit(git, rev_a, "REV_A"), _commit(git, rev_b, "REV_B")
        blobs_a = {experiment_id(p): o for p, o in git.tree_blobs(a.hash, RESULTS_DIR, RESULT_FILE).items()}
        blobs_b = {experiment_id(p): o for p, o in git.tree_blobs(b.hash, RESULTS_DIR, RESULT_FILE).items()}
        data = git.read([*blobs_a.values(), *blobs_b.values()])
    except HistoryUnavailable as exc:
        raise InputError(f"{repo_root}: cannot read the history ({exc})") from None
    changes: list[FigureChange] = []
    skipped: list[str] = []
    for exp_id in sorted(set(blobs_a) | set(blobs_b)):
        doc_a, why_a = read_result(data.get(blobs_a[exp_id])) if exp_id in blobs_a else (None, None)
        doc_b, why_b = read_result(data.get(blobs_b[exp_id])) if exp_id in blobs_b else (None, None)
        skipped += [f"{exp_id} at {side}: {why}" for side, why in (("A", why_a), ("B", why_b)) if why]
        for fig in figures_for(exp_id, doc_b or doc_a):
            va, vb = figure_value(doc_a, fig), figure_value(doc_b, fig)
            changes.append(FigureChange(exp_id, fig.label, fig.pointer, fig.kind, va, vb, _status(va, vb)))
    changed = tuple(sorted(e for e in set(blobs_a) & set(blobs_b) if blobs_a[e] != blobs_b[e]))
    return ResultDiff(a, b, tuple(changes), changed, tuple(sorted(set(blobs_a) - set(blobs_b))),
                      tuple(sorted(set(blobs_b) - set(blobs_a))), tuple(skipped))
