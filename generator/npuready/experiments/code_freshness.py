"""Has the code that produced each stored result changed since? (``npuready run --check``)

A result records the SHA-256 of every npuready source file its runner imported (``provenance.code``,
see ``fingerprint.py``); those are compared with the files now. A result stored before that was recorded
carries only the commit it ran at (``provenance.git.commit``): the runner's imports are walked again in
that commit's tree, read from git (``git ls-tree``, ``git cat-file``; no checkout), and those files'
hashes are the baseline. A file counts as changed when its hash differs, when the runner imports it now
but did not then, or when it imported it then and it is gone. A result with neither, or whose commit is
not in this clone, cannot be checked: that is reported too (rerun it to record its code).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from npuready.experiments.fingerprint import PACKAGE_PREFIX, file_hashes, module_files, repo_path, tree_files
from npuready.experiments.registry import runner_module
from npuready.history.gitrepo import GitRepo, HistoryUnavailable
from npuready.paths import experiments_dir, repo_root

SHOWN_FILES = 6  # files named per line; the rest are counted


@dataclass(frozen=True)
class CodeChange:
    experiment: str
    runner_file: str  # repository path of the runner module itself (listed first)
    basis: str  # what the files now were compared with
    changed: tuple[str, ...]
    added: tuple[str, ...]  # imported now, not then
    removed: tuple[str, ...]  # imported then, gone from the imports now

    @property
    def files(self) -> tuple[str, ...]:
        """Changed files first (the runner's own file leading), then new imports, then dropped ones."""
        return (*sorted(self.changed, key=lambda p: (p != self.runner_file, p)), *self.added, *self.removed)

    def line(self, shown: int | None = SHOWN_FILES) -> str:
        names = [f"{_short(p)} "
                 f"({'changed' if p in self.changed else 'new import' if p in self.added else 'no longer imported'})"
                 for p in self.files]
        cut = len(names) if shown is None else shown
        more = f" and {len(names) - cut} more (--verbose lists them)" if len(names) > cut else ""
        return (f"{self.experiment}: {len(names)} source file(s) its runner imports changed since result.json was "
                f"produced (compared with {self.basis}): {', '.join(names[:cut])}{more}; "
                f"run 'npuready run {self.experiment}'")


def _short(path: str) -> str:
    return path.removeprefix(PACKAGE_PREFIX + "/")


class _CommitTrees:
    """The package's files at earlier commits, read from git once per commit."""

    def __init__(self, repo: Path):
        self.git = GitRepo(repo)
        self._trees: dict[str, dict[str, bytes]] = {}

    def files(self, commit: str) -> dict[str, bytes]:
        if commit not in self._trees:
            paths = sorted(p for p in self.git.files(commit, PACKAGE_PREFIX) if p.endswith(".py"))
            blobs = self.git.read([f"{commit}:{p}" for p in paths])
            self._trees[commit] = {p: blobs[f"{commit}:{p}"] or b"" for p in paths}
        return self._trees[commit]

    def hashes(self, commit: str, runner: str) -> dict[str, str]:
        tree = self.files(commit)
        walked = tree_files(runner, set(tree), lambda p: tree[p].decode("utf-8", "replace"))
        return {p: hashlib.sha256(tree[p]).hexdigest() for p in walked.values()}


def runner_path(runner: str) -> str:
    return repo_path(module_files(runner)[runner])


def baseline(doc: Mapping[str, Any], runner: str, trees: _CommitTrees) -> tuple[dict[str, str], str]:
    """(repository path → SHA-256 then, how that was known). HistoryUnavailable when it cannot be known."""
    code = doc.get("provenance", {}).get("code")
    if isinstance(code, dict) and isinstance(code.get("files"), dict):
        return dict(code["files"]), "the hashes recorded in result.json"
    commit = (doc.get("provenance", {}).get("git") or {}).get("commit")
    if not commit:
        raise HistoryUnavailable("no source hashes and no commit recorded")
    full = trees.git.resolve(commit, "recorded commit")
    return trees.hashes(full, runner), f"the files at its recorded commit {commit[:7]}, read from git"


def compare(exp_id: str, runner_file: str, then: Mapping[str, str], now: Mapping[str, str],
            basis: str) -> CodeChange | None:
    changed = tuple(sorted(p for p in set(then) & set(now) if then[p] != now[p]))
    added = tuple(sorted(set(now) - set(then)))
    removed = tuple(sorted(set(then) - set(now)))
    if not (changed or added or removed):
        return None
    return CodeChange(exp_id, runner_file, basis, changed, added, removed)


def code_changes(root: Path | None = None) -> tuple[list[CodeChange], list[str]]:
    """(experiments whose producing code changed, experiments that cannot be checked with the reason)."""
    from npuready.errors import InputError
    from npuready.experiments.run import declared_ids, spec_for

    base = root or experiments_dir()
    trees = _CommitTrees(repo_root())
    changes: list[CodeChange] = []
    unknown: list[str] = []
    for exp_id in declared_ids(base):
        runner = runner_module(exp_id, spec_for(exp_id, base).kind)
        path = base / exp_id / "result.json"
        if runner is None or not path.is_file():
            continue  # freshness.stale_experiments reports these
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            then, basis = baseline(doc, runner, trees)
        except (ValueError, AttributeError):
            continue  # not a valid result: reported by freshness.stale_experiments
        except (HistoryUnavailable, InputError) as exc:
            unknown.append(f"{exp_id}: cannot tell whether the code that produced result.json changed ({exc}); "
                           f"run 'npuready run {exp_id}' to record its source files")
            continue
        now = file_hashes(runner)
        change = compare(exp_id, runner_path(runner), then, now, basis)
        if change is not None:
            changes.append(change)
    return changes, unknown


def stale_code(root: Path | None = None, verbose: bool = False) -> list[str]:
    """One line per experiment whose producing code changed or cannot be checked; empty when all are current.
    ``verbose``: every file, not only the first few."""
    changes, unknown = code_changes(root)
    return [c.line(None if verbose else SHOWN_FILES) for c in changes] + unknown
