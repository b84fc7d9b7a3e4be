"""Provenance of a run: git commit, package and tool versions, machine."""
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
