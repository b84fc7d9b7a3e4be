"""Content-addressed cache of finished tasks (``npuready run --resume``).

Key: SHA-256 of the experiment id, the task key and arguments, the spec's params, the code fingerprint
of the runner module (every npuready file it imports) and the installed package versions. An entry
also stores the SHA-256 of every input file the task read; it is reused only while each still matches.
Location: ``$NPUREADY_CACHE`` or ``~/.cache/npuready/tasks``; one JSON file per task, written atomically.
Every finished task is written (so a crash or a killed worker loses nothing); only ``--resume`` reads.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping

from npuready.atomic import write_json
from npuready.data.sha import sha256_file
from npuready.experiments import provenance
from npuready.experiments.fingerprint import code_fingerprint
from npuready.experiments.task import Job, Outcome


def cache_dir() -> Path:
    env = os.environ.get("NPUREADY_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "npuready" / "tasks"


class TaskCache:
    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root is not None else cache_dir()
        self._fingerprints: dict[str, str] = {}
        self._packages = provenance.package_versions()

    def key(self, job: Job) -> str:
        if job.module not in self._fingerprints:
            self._fingerprints[job.module] = code_fingerprint(job.module)
        doc = {"experiment": job.experiment_id, "module": job.module, "task": job.task.key,
               "args": job.task.args, "params": job.params, "code": self._fingerprints[job.module],
               "packages": self._packages}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, job: Job) -> Outcome | None:
        """The stored outcome when present and every input it recorded is unchanged, else None."""
        path = self._path(self.key(job))
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not _inputs_unchanged(doc.get("inputs", {}), Path(job.repo)):
            return None
        return Outcome.from_json(doc)

    def put(self, job: Job, outcome: Outcome) -> None:
        if outcome.error is None and outcome.bad_input is None:
            write_json(self._path(self.key(job)), outcome.to_json())


def _inputs_unchanged(inputs: Mapping[str, Any], repo: Path) -> bool:
    for rel, digest in inputs.items():
        path = Path(rel) if Path(rel).is_absolute() else repo / rel
        try:
            if sha256_file(path) != digest:
                return False
        except OSError:
            return False
    return True
