"""The model registry: a folder with ``index.json`` listing accepted models and refused attempts.

Layout::

    <root>/index.json                     the index (below)
    <root>/<name>/<target>/float.onnx     the float model as deployed
    <root>/<name>/<target>/qdq.onnx       its INT8 QDQ model
    <root>/<name>/<target>/integer.npz    the integer graph the engine runs

``index.json``: ``{"version": 1, "models": [...], "rejections": [...]}``. An accepted entry records
``name``, ``target``, ``model_sha256``, every artefact's path and SHA-256, the evidence of every stage
(lint, partition, cost, calibrate, quantize, engine, parity) and the ``command`` that reproduces it.
A blocked model is never added to ``models``; the refusal (``stage``, ``reason``, the evidence of the
stages that ran, ``command``) goes to ``rejections``. One entry per (name, target) in ``models`` and
per (name, target, model_sha256) in ``rejections``; a later acceptance of the same model removes its
rejection. Writes are atomic.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npuready.atomic import write_json
from npuready.errors import InputError
from npuready.experiments.context import sha256_file

INDEX_VERSION = 1


@dataclass(frozen=True)
class Registry:
    root: Path

    @property
    def index_path(self) -> Path:
        return self.root / "index.json"

    def read(self) -> dict[str, Any]:
        if self.root.exists() and not self.root.is_dir():
            raise InputError(f"registry {self.root}: exists and is not a folder")
        if not self.index_path.exists():
            return {"version": INDEX_VERSION, "models": [], "rejections": []}
        try:
            doc = json.loads(self.index_path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise InputError(f"{self.index_path}: registry index is not valid JSON ({exc}); fix or move it") from None
        if not isinstance(doc, dict) or doc.get("version") != INDEX_VERSION or not isinstance(doc.get("models"), list):
            raise InputError(f"{self.index_path}: not an npuready registry index (version {INDEX_VERSION})")
        doc.setdefault("rejections", [])
        return doc

    def _write(self, doc: dict[str, Any]) -> None:
        try:
            write_json(self.index_path, doc)
        except OSError as exc:
            raise InputError(f"registry {self.root}: cannot write the index ({exc.strerror or exc})") from None

    def accept(self, name: str, target: str, files: dict[str, Path], evidence: dict[str, Any],
               command: str, model_sha256: str | None = None) -> dict[str, Any]:
        """Copy artefacts into ``<root>/<name>/<target>/`` and add (or replace) the index entry."""
        doc = self.read()
        dest = self.root / name / target
        hashes = {}
        try:
            dest.mkdir(parents=True, exist_ok=True)
            for role, src in files.items():
                copy = dest / f"{role}{src.suffix}"
                tmp = copy.with_suffix(copy.suffix + ".tmp")
                shutil.copyfile(src, tmp)
                tmp.replace(copy)
                hashes[role] = {"path": copy.relative_to(self.root).as_posix(), "sha256": sha256_file(copy)}
        except OSError as exc:
            raise InputError(f"registry {self.root}: cannot store the artefacts ({exc.strerror or exc})") from None
        sha = model_sha256 or hashes.get("float", {}).get("sha256")
        entry = {"name": name, "target": target, "model_sha256": sha, "files": hashes, "evidence": evidence,
                 "command": command}
        doc["models"] = [m for m in doc["models"] if not (m["name"] == name and m["target"] == target)] + [entry]
        doc["models"].sort(key=lambda m: (m["name"], m["target"]))
        doc["rejections"] = [r for r in doc["rejections"]
                             if not (r["name"] == name and r["target"] == target and r["model_sha256"] == sha)]
        self._write(doc)
        return entry

    def reject(self, name: str, target: str, stage: str, reason: str, model_sha256: str, command: str,
               evidence: dict[str, Any] | None = None) -> dict[str, Any]:
        doc = self.read()
        entry = {"name": name, "target": target, "stage": stage, "reason": reason, "model_sha256": model_sha256,
                 "command": command, "evidence": evidence or {}}
        doc["rejections"] = [r for r in doc["rejections"]
                             if not (r["name"] == name and r["target"] == target and r["model_sha256"] == model_sha256)]
        doc["rejections"].append(entry)
        self._write(doc)
        return entry

    def lookup(self, name: str, target: str) -> dict[str, Any] | None:
        return next((m for m in self.read()["models"] if m["name"] == name and m["target"] == target), None)
