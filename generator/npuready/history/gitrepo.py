"""Read a repository's history with the git command line (no network, no library): commits, trees, blobs.

Every call runs ``git -C REPO ...`` with a timeout. When git is missing, ``REPO`` is not a git work tree,
or the clone is shallow (history cut off), ``unavailable()`` says why in one sentence, so callers can
report that instead of failing.
"""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from npuready.errors import InputError

TIMEOUT_S = 120


class HistoryUnavailable(Exception):
    """git or the repository's history cannot be read here (the message says why)."""


@dataclass(frozen=True)
class Commit:
    hash: str
    date: str  # committer date, ISO 8601 with offset
    subject: str

    @property
    def short(self) -> str:
        return self.hash[:7]

    def to_json(self) -> dict[str, str]:
        return {"hash": self.hash, "short": self.short, "date": self.date, "subject": self.subject}


class GitRepo:
    def __init__(self, root: Path):
        self.root = Path(root)

    def _git(self, *args: str, stdin: bytes | None = None) -> bytes:
        if shutil.which("git") is None:
            raise HistoryUnavailable("git is not installed")
        try:
            done = subprocess.run(["git", "-C", str(self.root), *args], input=stdin, capture_output=True,
                                  timeout=TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as exc:
            raise HistoryUnavailable(f"git {args[0]} failed in {self.root}: {exc}") from None
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise HistoryUnavailable(f"git {args[0]} failed in {self.root}: {message[-1] if message else 'no output'}")
        return done.stdout

    def missing(self) -> str | None:
        """None when ``root`` is inside a git work tree; else one sentence saying why not."""
        try:
            inside = self._git("rev-parse", "--is-inside-work-tree").strip() == b"true"
        except HistoryUnavailable as exc:
            if shutil.which("git") is None:
                return f"no git history: {exc}"
            inside = False
        return None if inside else f"{self.root} is not a git work tree (a source archive has no history)"

    def unavailable(self) -> str | None:
        """None when the full history can be read; else one sentence saying why not."""
        reason = self.missing()
        if reason:
            return reason
        try:
            shallow = self._git("rev-parse", "--is-shallow-repository").strip() == b"true"
        except HistoryUnavailable as exc:
            return f"no git history: {exc}"
        if shallow:
            return (f"{self.root} is a shallow clone: its history is cut off "
                    f"(git fetch --unshallow, or check out with fetch-depth: 0)")
        return None

    def resolve(self, rev: str, label: str = "revision") -> str:
        """The full hash of ``rev``; InputError naming it when it is not a commit here."""
        if not rev or rev.startswith("-") or any(c.isspace() for c in rev):
            raise InputError(f"{label} '{rev}': not a git revision; give a commit hash, tag or branch (git log)")
        try:
            return self._git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
        except HistoryUnavailable:
            reason = self.unavailable()
            where = f" ({reason})" if reason else ""  # a shallow clone may lack the commit
            raise InputError(f"{label} '{rev}': not a commit in {self.root}{where}; give a commit hash, tag or "
                             f"branch that 'git log' lists") from None

    def log(self, pathspecs: list[str], rev: str = "HEAD") -> list[tuple[Commit, frozenset[str]]]:
        """Commits reachable from ``rev`` that changed a path matching ``pathspecs``, oldest first (topological
        order), each with the matching paths it changed against its first parent (a merge: what it brought in)."""
        out = self._git("log", "--topo-order", "--reverse", "--diff-merges=first-parent", "--name-only", "-z",
                        "--format=%x01%H%x00%cI%x00%s", rev, "--", *pathspecs).decode("utf-8", "replace")
        found = []
        for record in filter(None, out.split("\x01")):
            sha, date, rest = record.split("\x00", 2)
            subject, _, names = rest.partition("\x00")  # -z: "subject NUL [LF name NUL ...]"
            found.append((Commit(sha.strip(), date, subject),
                          frozenset(filter(None, names.lstrip("\n").split("\x00")))))
        return found

    def log_one(self, rev: str) -> Commit:
        """The commit ``rev`` itself (hash, date, subject)."""
        out = self._git("log", "-1", "--format=%H%x00%cI%x00%s", rev, "--").decode("utf-8", "replace")
        sha, date, subject = out.rstrip("\n").split("\x00")
        return Commit(sha, date, subject)

    def tree_blobs(self, rev: str, folder: str, name: str) -> dict[str, str]:
        """``{path: blob id}`` of the files called ``name`` anywhere under ``folder`` at ``rev``."""
        out = self._git("ls-tree", "-r", "-z", rev, "--", folder).decode("utf-8", "replace")
        blobs = {}
        for entry in filter(None, out.split("\x00")):
            meta, path = entry.split("\t", 1)
            kind, blob = meta.split()[1:3]
            if kind == "blob" and path.rsplit("/", 1)[-1] == name:
                blobs[path] = blob
        return blobs

    def files(self, rev: str, folder: str) -> set[str]:
        """Paths of every file under ``folder`` at ``rev``."""
        out = self._git("ls-tree", "-r", "-z", "--name-only", rev, "--", folder).decode("utf-8", "replace")
        return set(filter(None, out.split("\x00")))

    def read(self, objects: list[str]) -> dict[str, bytes | None]:
        """Contents of many objects at once (blob ids or ``rev:path``); None for a missing one."""
        wanted = list(dict.fromkeys(objects))
        if not wanted:
            return {}
        out = self._git("cat-file", "--batch", stdin="".join(f"{o}\n" for o in wanted).encode())
        found: dict[str, bytes | None] = {}
        pos = 0
        for name in wanted:
            end = out.index(b"\n", pos)
            header = out[pos:end].split()
            pos = end + 1
            if len(header) < 3 or header[-1] == b"missing":
                found[name] = None
                continue
            size = int(header[2])
            found[name] = out[pos:pos + size] if header[1] == b"blob" else None
            pos += size + 1
        return found
