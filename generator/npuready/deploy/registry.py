"""The model registry: a folder with ``index.json`` listing accepted models and refused attempts.

Layout::

    <root>/index.json                               the index (below)
    <root>/<name>/<target>/<version>/float.onnx     the float model as deployed
    <root>/<name>/<target>/<version>/qdq.onnx       its INT8 QDQ model
    <root>/<name>/<target>/<version>/integer.npz    the integer graph the engine runs
    <root>/.lock                                    exclusive lock for index updates (fcntl, via filelock)
    <root>/.staging/<version>/                      a deploy being written (+ <version>.lock, held by its writer)

``index.json``: ``{"version": 1, "models": [...], "rejections": [...]}``. An accepted entry records
``name``, ``target``, ``model_sha256``, its artefact ``version`` folder, every artefact's path and SHA-256,
the evidence of every stage and the ``command`` that reproduces it. A blocked model is never added to
``models``; the refusal goes to ``rejections``. One entry per (name, target) in ``models`` and per (name,
target, model_sha256) in ``rejections``; a later acceptance of the same model removes its rejection.

Transactions: artefacts are written into a staging folder inside the registry (outside any lock) and
hashed there; then, holding the lock, the staging folder is renamed to its version folder (one atomic
rename), the index is written atomically (the commit point) and only then the replaced version is deleted.
A crash at any point leaves the index naming either the old or the new entry, each with files whose
hashes match; the next writer removes what a crash left (staging folders whose writer is gone, version
folders no entry names, index temp files). Names are validated and every path checked to lie inside the
registry (``deploy.names``). An unwritable registry (read-only, full disk) is an ``InputError`` naming the
file.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from npuready.atomic import write_json
from npuready.deploy.faults import checkpoint
from npuready.deploy.names import case_clash, check_name, inside
from npuready.errors import InputError
from npuready.data.sha import sha256_file
from npuready.nesting import parsed

INDEX_VERSION = 1
LOCK_TIMEOUT_S = 600.0
VERSION = re.compile(r"v[0-9a-f]{16}")
STAGING = ".staging"
STALE_LOCK_S = 3600.0  # a staging lock file without its folder is removed once this old


def unwritable(path: "Path | str", exc: OSError, what: str) -> InputError:
    """One line naming the registry file being written (not a temp or source file), the OS error and what to do."""
    return InputError(f"{path}: cannot {what} ({exc.strerror or exc}); the registry was not changed — free space "
                      "or make the registry writable and deploy again")


@dataclass(frozen=True)
class Stage:
    """A staging folder being filled by one deploy; ``put`` writes an artefact into it."""

    dir: Path
    version: str

    def path(self, role: str, suffix: str) -> Path:
        return self.dir / f"{role}{suffix}"

    def write(self, role: str, suffix: str, writer: Callable[[Path], Any]) -> Path:
        """``writer(path)`` writes the artefact ``<role><suffix>``; an OSError becomes one line naming it."""
        dst = self.path(role, suffix)
        try:
            writer(dst)
        except OSError as exc:
            raise unwritable(dst, exc, "store the artefact") from None
        return dst

    def put(self, role: str, src: Path) -> Path:
        return self.write(role, src.suffix, lambda dst: shutil.copyfile(src, dst))


@dataclass(frozen=True)
class Registry:
    root: Path

    @property
    def index_path(self) -> Path:
        return self.root / "index.json"

    # ----- reading ------------------------------------------------------------------------------
    def read(self) -> dict[str, Any]:
        if self.root.exists() and not self.root.is_dir():
            raise InputError(f"registry {self.root}: exists and is not a folder")
        if not self.index_path.exists() and not self.index_path.is_symlink():
            return {"version": INDEX_VERSION, "models": [], "rejections": []}
        self._check_index_file()  # a FIFO, device or huge file is never opened or read
        try:
            doc = parsed(lambda: json.loads(self.index_path.read_text(encoding="utf-8")), str(self.index_path))
        except ValueError as exc:
            raise InputError(f"{self.index_path}: registry index is not valid JSON ({exc}); fix or move it") from None
        except OSError as exc:
            raise InputError(f"{self.index_path}: cannot read the registry index ({exc.strerror or exc})") from None
        if not isinstance(doc, dict) or doc.get("version") != INDEX_VERSION or not isinstance(doc.get("models"), list):
            raise InputError(f"{self.index_path}: not an npuready registry index (version {INDEX_VERSION})")
        doc.setdefault("rejections", [])
        return doc

    def _check_index_file(self) -> None:
        import stat

        from npuready.atomic import kind_of
        from npuready.inputs.budget import MAX_REGISTRY_INDEX_BYTES

        try:
            st = self.index_path.stat()
        except OSError as exc:
            raise InputError(f"{self.index_path}: cannot read the registry index ({exc.strerror or exc})") from None
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{self.index_path}: is {kind_of(st.st_mode)}, not a registry index file; move it "
                             "away or give another --registry")
        if st.st_size > MAX_REGISTRY_INDEX_BYTES:
            raise InputError(f"{self.index_path}: {st.st_size:,} bytes, above the {MAX_REGISTRY_INDEX_BYTES:,}-byte "
                             "budget for a registry index; not read")

    def check_new_name(self, name: str, target: str | None = None) -> None:
        """Refuse a name (or target) that differs only in case from one the index already holds."""
        models = self.read()["models"]
        case_clash(name, {m["name"] for m in models})
        if target is not None:
            case_clash(target, {m["target"] for m in models if m["name"] == name}, "target name")

    def lookup(self, name: str, target: str) -> dict[str, Any] | None:
        return next((m for m in self.read()["models"] if m["name"] == name and m["target"] == target), None)

    def audit(self) -> list[str]:
        """Problems a reader could meet: an indexed file missing or with another hash than the index records,
        and leftovers (version folders no entry names, staging folders) the next writer would recover."""
        doc = self.read()
        problems = []
        for m in doc["models"]:
            for role, f in m["files"].items():
                path = self.root / f["path"]
                if not path.is_file():
                    problems.append(f"{m['name']}/{m['target']} {role}: {f['path']} is missing")
                elif sha256_file(path) != f["sha256"]:
                    problems.append(f"{m['name']}/{m['target']} {role}: {f['path']} does not match its sha256")
        named = {(m["name"], m["target"], m.get("version")) for m in doc["models"]}
        problems += [f"leftover version folder {v.relative_to(self.root).as_posix()}"
                     for v in sorted(self.root.glob("*/*/v*"))
                     if VERSION.fullmatch(v.name) and (v.parent.parent.name, v.parent.name, v.name) not in named]
        staging = self.root / STAGING
        problems += [f"leftover staging folder {p.relative_to(self.root).as_posix()}"
                     for p in sorted(staging.iterdir()) if p.is_dir()] if staging.is_dir() else []
        return problems

    # ----- locking and recovery -----------------------------------------------------------------
    def _mkdir(self, path: Path) -> Path:
        inside(self.root, path)
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise unwritable(path, exc, "create the folder") from None
        return inside(self.root, path)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[dict[str, Any]]:
        """Hold the index lock; yield the index as it is now (after recovering what crashes left)."""
        from filelock import FileLock, Timeout

        self._mkdir(self.root)
        lock_path = inside(self.root, self.root / ".lock")
        lock = FileLock(lock_path, timeout=LOCK_TIMEOUT_S)
        try:
            lock.acquire()
        except Timeout:
            raise InputError(f"{lock_path}: another deploy held the registry lock for more than {LOCK_TIMEOUT_S:g} s; "
                             "retry when it has finished") from None
        except OSError as exc:
            raise unwritable(lock_path, exc, "lock the registry") from None
        try:
            doc = self.read()
            self._recover(doc)
            yield doc
        finally:
            lock.release()

    def _write(self, doc: dict[str, Any]) -> None:
        inside(self.root, self.index_path)
        try:
            write_json(self.index_path, doc)
        except OSError as exc:
            raise unwritable(self.index_path, exc, "write the registry index") from None

    def _recover(self, doc: dict[str, Any]) -> None:
        """Under the lock: remove staging folders whose writer is gone, version folders no entry names, and
        index temp files. Best effort: what cannot be removed now is retried by the next writer."""
        from filelock import FileLock, Timeout

        staging = self.root / STAGING
        if staging.is_dir() and not staging.is_symlink():
            for folder in staging.iterdir():  # its writer holds <version>.lock from before mkdir until it is gone
                if folder.is_dir() and VERSION.fullmatch(folder.name):
                    try:
                        with FileLock(staging / f"{folder.name}.lock", timeout=0):
                            shutil.rmtree(folder, ignore_errors=True)
                        (staging / f"{folder.name}.lock").unlink(missing_ok=True)
                    except (Timeout, OSError):
                        continue  # a live deploy is still writing it
            now = time.time()
            for lock in staging.glob("v*.lock"):  # a writer killed between lock and mkdir; old only (no race)
                with contextlib.suppress(OSError):
                    if not (staging / lock.stem).exists() and now - lock.stat().st_mtime > STALE_LOCK_S:
                        lock.unlink()
        named = {(m["name"], m["target"], m.get("version")) for m in doc["models"]}
        base = self.root.resolve()
        for version in self.root.glob("*/*/v*"):
            name, target = version.parent.parent.name, version.parent.name
            if (VERSION.fullmatch(version.name) and (name, target, version.name) not in named
                    and version.resolve().parent.parent.parent == base):  # never through a symlink
                shutil.rmtree(version, ignore_errors=True)
        for tmp in self.root.glob(".index.json.*.tmp"):
            tmp.unlink(missing_ok=True)

    # ----- writing ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def stage(self) -> Iterator[Stage]:
        """A fresh staging folder inside the registry, locked for this process; removed on exit unless committed."""
        from filelock import FileLock

        version = "v" + uuid.uuid4().hex[:16]
        area = self._mkdir(self.root / STAGING)
        folder = area / version
        lock = FileLock(area / f"{version}.lock")
        try:
            lock.acquire(timeout=0)
            folder.mkdir()
        except OSError as exc:
            lock.release()
            raise unwritable(folder, exc, "create the staging folder") from None
        try:
            yield Stage(folder, version)
        finally:
            shutil.rmtree(folder, ignore_errors=True)  # gone already when committed (renamed into place)
            lock.release()
            (area / f"{version}.lock").unlink(missing_ok=True)

    def commit(self, stage: Stage, name: str, target: str, evidence: dict[str, Any], command: str,
               model_sha256: str | None = None) -> dict[str, Any]:
        """Move a filled staging folder into place and record it in the index (replacing the old entry)."""
        check_name(name)
        check_name(target, "target name")
        files = sorted(p for p in stage.dir.iterdir() if p.is_file() and not p.name.startswith("."))
        hashes = {p.stem: {"sha256": sha256_file(p)} for p in files}
        checkpoint("staged")
        with self._locked() as doc:
            case_clash(name, {m["name"] for m in doc["models"]})
            case_clash(target, {m["target"] for m in doc["models"] if m["name"] == name}, "target name")
            dest = inside(self.root, self.root / name / target / stage.version)
            self._mkdir(dest.parent)
            try:
                os.rename(stage.dir, dest)
            except OSError as exc:
                raise unwritable(dest, exc, "move the artefacts into place") from None
            checkpoint("moved")
            for p in files:
                hashes[p.stem]["path"] = (dest / p.name).relative_to(self.root.resolve()).as_posix()
            sha = model_sha256 or hashes.get("float", {}).get("sha256")
            entry = {"name": name, "target": target, "model_sha256": sha, "version": stage.version, "files": hashes,
                     "evidence": evidence, "command": command}
            old = [m for m in doc["models"] if m["name"] == name and m["target"] == target]
            doc["models"] = sorted([m for m in doc["models"] if m not in old] + [entry],
                                   key=lambda m: (m["name"], m["target"]))
            doc["rejections"] = [r for r in doc["rejections"]
                                 if not (r["name"] == name and r["target"] == target and r["model_sha256"] == sha)]
            try:
                self._write(doc)
            except InputError:
                shutil.rmtree(dest, ignore_errors=True)
                raise
            checkpoint("indexed")
            for m in old:
                self._remove_version(m)
        return entry

    def _remove_version(self, entry: dict[str, Any]) -> None:
        """Delete the artefacts of a replaced entry (after the index no longer names them)."""
        for f in entry.get("files", {}).values():
            path = self.root / f["path"]
            folder = path.parent
            if folder.resolve() != self.root.resolve() and self.root.resolve() in folder.resolve().parents:
                if entry.get("version") and folder.name == entry["version"]:
                    shutil.rmtree(folder, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)

    def accept(self, name: str, target: str, files: dict[str, Path], evidence: dict[str, Any],
               command: str, model_sha256: str | None = None) -> dict[str, Any]:
        """Copy artefacts (role -> file) into a new version of ``<name>/<target>`` and index it."""
        check_name(name)
        check_name(target, "target name")
        with self.stage() as st:
            for role, src in files.items():
                st.put(role, Path(src))
                checkpoint("staging")
            return self.commit(st, name, target, evidence, command, model_sha256)

    def reject(self, name: str, target: str, stage: str, reason: str, model_sha256: str, command: str,
               evidence: dict[str, Any] | None = None) -> dict[str, Any]:
        check_name(name)
        check_name(target, "target name")
        entry = {"name": name, "target": target, "stage": stage, "reason": reason, "model_sha256": model_sha256,
                 "command": command, "evidence": evidence or {}}
        with self._locked() as doc:
            doc["rejections"] = [r for r in doc["rejections"] if not (r["name"] == name and r["target"] == target
                                                                      and r["model_sha256"] == model_sha256)]
            doc["rejections"].append(entry)
            self._write(doc)
        return entry
