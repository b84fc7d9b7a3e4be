"""Provenance of a run: git commit, package and tool versions, machine, the source files of its runner."""
from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

PACKAGES = ("npuready", "numpy", "onnx", "onnxruntime", "torch", "ai-edge-litert", "ethos-u-vela")


def git_commit(repo: Path) -> dict[str, Any]:
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                             timeout=10).stdout.strip()
        return {"commit": sha or None}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None}


def code(runner: str) -> dict[str, Any]:
    """The runner module and the SHA-256 of every npuready source file it imports, transitively
    (``fingerprint.file_hashes``); ``npuready run --check`` names the files that changed since."""
    from npuready.experiments.fingerprint import file_hashes

    return {"runner": runner, "files": file_hashes(runner)}


def package_versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out


def machine() -> dict[str, Any]:
    return {
        "system": platform.system(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
